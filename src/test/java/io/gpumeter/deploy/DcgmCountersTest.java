package io.gpumeter.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The dcgm-exporter counters CSV and Helm values: the triad on, the pod labels the ledger uses, nothing unknown. */
class DcgmCountersTest {

    private static final Path DIR = Repo.k8s().resolve("monitoring/dcgm-exporter");
    private static final Pattern FIELD = Pattern.compile("^\\s*(#\\s*)?(DCGM_\\w+)\\s*,\\s*(\\w+)\\s*,.*$");

    /**
     * Fields DCGM defines (dcgm_fields.h) that dcgm-exporter's default CSV does not list, even commented out: field
     * 112, the clocks-event bitmask the collector takes apart into one series per reason.
     */
    private static final Set<String> BEYOND_UPSTREAM = Set.of("DCGM_FI_DEV_CLOCKS_EVENT_REASONS");

    /** What gpumeter turns on beyond dcgm-exporter's defaults. */
    private static final Set<String> ADDED = Set.of("DCGM_FI_PROF_SM_ACTIVE", "DCGM_FI_PROF_SM_OCCUPANCY",
            "DCGM_FI_DEV_POWER_VIOLATION", "DCGM_FI_DEV_THERMAL_VIOLATION", "DCGM_FI_DEV_CLOCKS_EVENT_REASONS",
            // GPU health: double-bit ECC errors and pages pending retirement (the ledger's gpu-health incidents)
            "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "DCGM_FI_DEV_RETIRED_PENDING");

    @Test
    void theTriadAndItsCompanionsAreOn() {
        Map<String, String> enabled = enabled(Repo.read(DIR.resolve("dcgm-metrics.csv")));
        for (String field : Set.of("DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_PROF_GR_ENGINE_ACTIVE", "DCGM_FI_PROF_SM_ACTIVE",
                "DCGM_FI_PROF_SM_OCCUPANCY", "DCGM_FI_PROF_DRAM_ACTIVE", "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE",
                "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_SM_CLOCK", "DCGM_FI_DEV_XID_ERRORS")) {
            assertTrue(enabled.containsKey(field), field + " is not enabled");
        }
    }

    @Test
    void onlyKnownFieldsAreChangedFromTheUpstreamDefaults() {
        String upstream = Repo.resource("dcgm-exporter-default-counters.csv");
        Map<String, String> upstreamEnabled = enabled(upstream);
        Set<String> upstreamKnown = new TreeSet<>();
        for (String line : upstream.split("\n")) {
            Matcher m = FIELD.matcher(line);
            if (m.matches()) {
                upstreamKnown.add(m.group(2));
            }
        }
        Map<String, String> ours = enabled(Repo.read(DIR.resolve("dcgm-metrics.csv")));
        for (String field : ours.keySet()) {
            assertTrue(upstreamKnown.contains(field) || BEYOND_UPSTREAM.contains(field),
                    field + " is not a field dcgm-exporter's CSV knows");
        }
        Set<String> expected = new TreeSet<>(upstreamEnabled.keySet());
        expected.addAll(ADDED);
        assertEquals(expected, new TreeSet<>(ours.keySet()), "upstream defaults plus the documented additions");
    }

    @Test
    void theScrapeTheTestsUseHasExactlyTheEnabledFields() {
        Map<String, String> ours = enabled(Repo.read(DIR.resolve("dcgm-metrics.csv")));
        Set<String> series = new TreeSet<>();
        ours.forEach((field, type) -> {
            if (!type.equals("label")) {
                series.add(field);
            }
        });
        assertEquals(series, Monitoring.dcgmScrapeNames());
    }

    @Test
    void podLabelsCarryTheLedgersAttributionLabels() throws IOException {
        JsonNode values = Yaml.read(DIR.resolve("gpu-operator-values.yaml"));
        Map<String, String> env = new LinkedHashMap<>();
        values.path("dcgmExporter").path("env").forEach(e -> env.put(e.path("name").asText(), e.path("value").asText()));
        assertEquals("true", env.get("DCGM_EXPORTER_KUBERNETES_ENABLE_POD_LABELS"));
        assertEquals("true", env.get("DCGM_EXPORTER_KUBERNETES_ENABLE_POD_UID"));
        assertTrue(values.path("dcgmExporter").path("serviceMonitor").path("honorLabels").asBoolean(),
                "honorLabels keeps the GPU holder's pod and namespace labels");
        Pattern allow = Pattern.compile(env.get("DCGM_EXPORTER_KUBERNETES_POD_LABEL_ALLOWLIST_REGEX"));

        Properties ledger = new Properties();
        try (Reader in = Files.newBufferedReader(Repo.root().resolve("ledger-service/src/main/resources/application.properties"))) {
            ledger.load(in);
        }
        Set<String> attribution = new TreeSet<>();
        ledger.stringPropertyNames().stream().filter(k -> k.startsWith("gpumeter.ledger.attribution."))
                .forEach(k -> attribution.add(ledger.getProperty(k).trim()));
        assertFalse(attribution.isEmpty(), "ledger-service configures no attribution labels");
        String scrape = Repo.resource("dcgm-exporter-scrape.prom");
        for (String label : attribution) {
            assertTrue(allow.matcher(label).matches(), "dcgm-exporter drops the ledger's label " + label);
            // dcgm-exporter turns a pod label key into a Prometheus label name by replacing what is not [a-zA-Z0-9_].
            String exported = label.replaceAll("[^a-zA-Z0-9_]", "_");
            assertTrue(scrape.contains(exported + "=\""), "the test scrape lacks " + exported);
        }
        assertTrue(allow.matcher("gpumeter.io/workload-class").matches(), "the inference alert needs the workload class");
        assertFalse(allow.matcher("pod-template-hash").matches(), "only the allowlisted labels, no high-cardinality ones");
    }

    @Test
    void theGpuOperatorFindsTheConfigMapAndTheFile() {
        JsonNode values = Yaml.read(DIR.resolve("gpu-operator-values.yaml"));
        Manifests m = Manifests.of("monitoring/dcgm-exporter");
        ConfigMap cm = m.get(ConfigMap.class, values.path("dcgmExporter").path("config").path("name").asText());
        assertEquals("gpu-operator", cm.getMetadata().getNamespace());
        String collectors = null;
        for (JsonNode e : values.path("dcgmExporter").path("env")) {
            if (e.path("name").asText().equals("DCGM_EXPORTER_COLLECTORS")) {
                collectors = e.path("value").asText();
            }
        }
        assertTrue(collectors != null && collectors.startsWith("/etc/dcgm-exporter/"), "DCGM_EXPORTER_COLLECTORS");
        String key = Path.of(collectors).getFileName().toString();
        assertEquals(Repo.read(DIR.resolve("dcgm-metrics.csv")), cm.getData().get(key), "the ConfigMap carries the CSV as " + key);
    }

    /** Enabled (uncommented) fields of a counters CSV and their types. */
    static Map<String, String> enabled(String csv) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : csv.split("\n")) {
            Matcher m = FIELD.matcher(line);
            if (m.matches() && m.group(1) == null) {
                assertTrue(out.put(m.group(2), m.group(3)) == null, "field listed twice: " + m.group(2));
            }
        }
        return out;
    }
}
