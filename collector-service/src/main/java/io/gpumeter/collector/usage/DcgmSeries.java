package io.gpumeter.collector.usage;

import io.gpumeter.common.fact.UsageField;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Maps dcgm-exporter samples to usage observations: the field named by the metric, the GPU by {@code UUID}, the MIG
 * instance by {@code GPU_I_ID}/{@code GPU_I_PROFILE}, the pod by {@code pod}/{@code namespace}/{@code container}
 * (or the older {@code pod_name}/{@code pod_namespace}/{@code container_name}).
 */
public final class DcgmSeries {

    record Rule(UsageField field, ValueScale scale) {
    }

    // DCGM 4.x renamed fields per its naming standard, same ids; the exporter names a metric as its counters CSV
    // spells the field, so both spellings reach us. Field 203 stays an integer percentage under its _RATIO name.
    // The memory-health fields are the card's: the ledger turns them into GPU health failures.
    private static final Map<String, Rule> RULES = Map.ofEntries(
            rule("DCGM_FI_DEV_GPU_UTIL", UsageField.GPU_UTIL, ValueScale.PERCENT),
            rule("DCGM_FI_DEV_GPU_UTIL_RATIO", UsageField.GPU_UTIL, ValueScale.PERCENT),
            rule("DCGM_FI_PROF_GR_ENGINE_ACTIVE", UsageField.GR_ENGINE_ACTIVE, ValueScale.RATIO),
            rule("DCGM_FI_PROF_GR_ENGINE_UTIL_RATIO", UsageField.GR_ENGINE_ACTIVE, ValueScale.RATIO),
            rule("DCGM_FI_PROF_SM_ACTIVE", UsageField.SM_ACTIVE, ValueScale.RATIO),
            rule("DCGM_FI_PROF_SM_UTIL_RATIO", UsageField.SM_ACTIVE, ValueScale.RATIO),
            rule("DCGM_FI_PROF_SM_OCCUPANCY", UsageField.SM_OCCUPANCY, ValueScale.RATIO),
            rule("DCGM_FI_PROF_SM_OCCUPANCY_RATIO", UsageField.SM_OCCUPANCY, ValueScale.RATIO),
            rule("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", UsageField.TENSOR_ACTIVE, ValueScale.RATIO),
            rule("DCGM_FI_PROF_TENSOR_UTIL_RATIO", UsageField.TENSOR_ACTIVE, ValueScale.RATIO),
            rule("DCGM_FI_PROF_DRAM_ACTIVE", UsageField.DRAM_ACTIVE, ValueScale.RATIO),
            rule("DCGM_FI_PROF_DRAM_UTIL_RATIO", UsageField.DRAM_ACTIVE, ValueScale.RATIO),
            rule("DCGM_FI_DEV_FB_USED", UsageField.FB_USED_MIB, ValueScale.QUANTITY),
            rule("DCGM_FI_DEV_FB_FREE", UsageField.FB_FREE_MIB, ValueScale.QUANTITY),
            rule("DCGM_FI_DEV_FB_RESERVED", UsageField.FB_RESERVED_MIB, ValueScale.QUANTITY),
            rule("DCGM_FI_DEV_POWER_USAGE", UsageField.POWER_W, ValueScale.QUANTITY),
            rule("DCGM_FI_DEV_BOARD_POWER_WATTS", UsageField.POWER_W, ValueScale.QUANTITY),
            rule("DCGM_FI_DEV_SM_CLOCK", UsageField.SM_CLOCK_MHZ, ValueScale.QUANTITY),
            rule("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", UsageField.THROTTLE_REASONS, ValueScale.CODE),
            rule("DCGM_FI_DEV_CLOCKS_EVENT_REASONS", UsageField.THROTTLE_REASONS, ValueScale.CODE),
            rule("DCGM_FI_DEV_XID_ERRORS", UsageField.XID, ValueScale.CODE),
            rule("DCGM_FI_DEV_XID_ERROR", UsageField.XID, ValueScale.CODE),
            rule("DCGM_FI_DEV_ROW_REMAP_FAILURE", UsageField.ROW_REMAP_FAILURE, ValueScale.CODE),
            rule("DCGM_FI_DEV_ROW_REMAP_FAILED", UsageField.ROW_REMAP_FAILURE, ValueScale.CODE),
            rule("DCGM_FI_DEV_ROW_REMAP_PENDING", UsageField.ROW_REMAP_PENDING, ValueScale.CODE),
            rule("DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", UsageField.UNCORRECTABLE_REMAPPED_ROWS, ValueScale.COUNT),
            rule("DCGM_FI_DEV_ROW_REMAP_UNCORRECTABLE_TOTAL", UsageField.UNCORRECTABLE_REMAPPED_ROWS, ValueScale.COUNT),
            rule("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", UsageField.ECC_DBE_VOLATILE, ValueScale.COUNT),
            rule("DCGM_FI_DEV_RETIRED_PENDING", UsageField.RETIRED_PAGES_PENDING, ValueScale.COUNT),
            rule("DCGM_FI_DEV_PAGE_RETIRED_PENDING", UsageField.RETIRED_PAGES_PENDING, ValueScale.COUNT),
            // Counters since the driver loaded (energy in mJ, time held back in ns): the ledger derives their
            // increase per minute, resets included.
            rule("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", UsageField.TOTAL_ENERGY_MJ, ValueScale.COUNT),
            rule("DCGM_FI_DEV_POWER_VIOLATION", UsageField.POWER_VIOLATION_NS, ValueScale.COUNT),
            rule("DCGM_FI_DEV_THERMAL_VIOLATION", UsageField.THERMAL_VIOLATION_NS, ValueScale.COUNT));

    /** The label dcgm-exporter carries the card's driver version in. */
    static final String DRIVER_VERSION = "DCGM_FI_DRIVER_VERSION";
    /** The source a driver sighting from here names. */
    public static final String SOURCE = "dcgm-exporter";

    private DcgmSeries() {
    }

    /** The metric names read, both DCGM spellings: what a Prometheus query for DCGM series selects. */
    public static Set<String> metricNames() {
        return RULES.keySet();
    }

    /** The field a dcgm-exporter metric carries, if it is read. */
    public static Optional<UsageField> fieldOf(String metric) {
        Rule rule = RULES.get(metric);
        return rule == null ? Optional.empty() : Optional.of(rule.field());
    }

    /**
     * @param receivedAt when the body arrived: the time of samples without a timestamp
     * @param node       the node the body came from, preferred to the exporter's {@code Hostname} label (the exporter
     *                   pod's name when the exporter runs without NODE_NAME); null or blank to use the label
     */
    public static UsageMapping map(List<Sample> samples, Instant receivedAt, String node) {
        UsageMapping.Builder out = new UsageMapping.Builder();
        String given = node == null || node.isBlank() ? null : node;
        for (Sample sample : samples) {
            driverVersion(sample, given, receivedAt, out);
            Rule rule = RULES.get(sample.name());
            if (rule == null) {
                out.unknown();
                continue;
            }
            String uuid = sample.label("UUID", "uuid");
            if (uuid == null) {
                out.invalid(sample, "no UUID label");
                continue;
            }
            String blank = blank(rule.scale(), sample.value());
            if (blank != null) {
                out.invalid(sample, blank);
                continue;
            }
            Double value = rule.scale().normalise(sample.value());
            if (value == null) {
                out.invalid(sample, "value " + sample.value() + " is not a " + rule.scale().describe());
                continue;
            }
            String instance = sample.label("GPU_I_ID");
            Long instanceId = instance == null ? null : Decimals.integer(instance);
            if (instance != null && (instanceId == null || instanceId < 0 || instanceId > Integer.MAX_VALUE)) {
                out.invalid(sample, "GPU_I_ID \"" + instance + "\" is not a GPU instance id");
                continue;
            }
            UsageObservation observation = new UsageObservation(uuid,
                    given != null ? given : sample.label("Hostname", "hostname"),
                    sample.label("modelName"),
                    sample.label("GPU_I_PROFILE"),
                    instanceId == null ? null : instanceId.intValue(),
                    sample.label("namespace", "pod_namespace"),
                    sample.label("pod", "pod_name"),
                    sample.label("container", "container_name"),
                    rule.field(), value, at(sample, receivedAt));
            if (rule.field() == UsageField.THROTTLE_REASONS) {
                ClockEvents.Decoded decoded;
                try {
                    decoded = ClockEvents.decode(value);
                } catch (IllegalArgumentException e) {
                    out.invalid(sample, e.getMessage());
                    continue;
                }
                if (decoded.unknownBits() != 0) {
                    out.note(ClockEvents.unknownBits(sample.name() + sample.labels(), decoded));
                }
                out.add(observation);
                decoded.values().forEach(v -> out.add(observation.with(v.reason().field(), v.value())));
                continue;
            }
            out.add(observation);
        }
        return out.build();
    }

    /** Why a value is one of DCGM's blanks ("no reading"), or null when it is a reading. */
    private static String blank(ValueScale scale, double value) {
        boolean blank = switch (scale) {
            case CODE, COUNT -> DcgmBlanks.isInt64Blank(value);
            case QUANTITY -> DcgmBlanks.isFp64Blank(value);
            default -> false;
        };
        return blank ? "value " + value + " is DCGM's blank (no reading: not supported, not found or not permitted)"
                : null;
    }

    /**
     * The driver version dcgm-exporter puts on every series of a card as a label (its default counters name
     * {@code DCGM_FI_DRIVER_VERSION} a label field), whatever metric the series is: once per card and version.
     */
    private static void driverVersion(Sample sample, String given, Instant receivedAt, UsageMapping.Builder out) {
        String version = sample.label(DRIVER_VERSION);
        if (version == null) {
            return;
        }
        String uuid = sample.label("UUID", "uuid");
        out.driverVersion(given != null ? given : sample.label("Hostname", "hostname"), uuid, version, SOURCE,
                at(sample, receivedAt), DRIVER_VERSION + " of " + uuid);
    }

    /** The sample's own timestamp when it has one, else the time the body arrived. */
    static Instant at(Sample sample, Instant receivedAt) {
        return sample.timestampMs().isPresent() ? Instant.ofEpochMilli(sample.timestampMs().getAsLong()) : receivedAt;
    }

    private static Map.Entry<String, Rule> rule(String metric, UsageField field, ValueScale scale) {
        return Map.entry(metric, new Rule(field, scale));
    }
}
