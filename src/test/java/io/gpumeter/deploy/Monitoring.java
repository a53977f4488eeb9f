package io.gpumeter.deploy;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** What k8s/monitoring defines and which series exist for it to use. */
final class Monitoring {

    /** Series Prometheus itself writes for the alerting rules it evaluates. */
    static final Set<String> PROMETHEUS_ALERT_SERIES = Set.of("ALERTS", "ALERTS_FOR_STATE");

    private Monitoring() {
    }

    static Path dir() {
        return Repo.k8s().resolve("monitoring");
    }

    static JsonNode prometheusRule() {
        return Yaml.read(dir().resolve("prometheusrule.yaml"));
    }

    /** Every rule of every group of the PrometheusRule. */
    static List<JsonNode> rules() {
        List<JsonNode> out = new ArrayList<>();
        prometheusRule().path("spec").path("groups").forEach(g -> g.path("rules").forEach(out::add));
        return out;
    }

    static List<JsonNode> alerts() {
        return rules().stream().filter(r -> r.has("alert")).toList();
    }

    static Set<String> recordNames() {
        Set<String> out = new LinkedHashSet<>();
        rules().stream().filter(r -> r.has("record")).forEach(r -> out.add(r.get("record").asText()));
        return out;
    }

    /** Metric names in the dcgm-exporter scrape the tests carry (deploy/dcgm-exporter-scrape.prom). */
    static Set<String> dcgmScrapeNames() {
        return sampleNames(Repo.resource("dcgm-exporter-scrape.prom"));
    }

    /** Names of the samples of a Prometheus text exposition. */
    static Set<String> sampleNames(String exposition) {
        Set<String> out = new TreeSet<>();
        for (String line : exposition.split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            int end = 0;
            while (end < l.length() && l.charAt(end) != '{' && l.charAt(end) != ' ') {
                end++;
            }
            out.add(l.substring(0, end));
        }
        return out;
    }

    /** Everything a dashboard or rule may select: dcgm-exporter's and the services' series, recorded series, ALERTS. */
    static Set<String> knownSeries() {
        Set<String> known = new TreeSet<>(dcgmScrapeNames());
        ServiceMetrics.load().forEach(m -> known.add(m.name()));
        known.addAll(recordNames());
        known.addAll(PROMETHEUS_ALERT_SERIES);
        return known;
    }
}
