package io.gpumeter.collector.usage;

import io.gpumeter.collector.usage.NvidiaSmiCsv.Column;
import io.gpumeter.collector.usage.NvidiaSmiCsv.Row;
import io.gpumeter.collector.usage.NvidiaSmiCsv.Table;
import io.gpumeter.common.fact.ClockEventReason;
import io.gpumeter.common.fact.UsageField;

import java.time.Instant;
import java.time.ZoneId;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Reads {@code nvidia-smi --query-gpu=… --format=csv[,nounits]} with any subset and order of columns, the full
 * 200-odd column query included: a {@code uuid} and a {@code timestamp} column and at least one metric column.
 * <p>
 * The clocks-event reasons are taken apart row by row into one 0/1 series per {@link ClockEventReason}: from the
 * {@code clocks_event_reasons.active} bitmask where it is queried and has a value, else from the per-reason columns
 * ({@code clocks_event_reasons.sw_power_cap} and the like, "Active" or "Not Active"; there is none for the display
 * clock setting). The legacy {@code clocks_throttle_reasons.*} names are read as the same columns.
 */
public final class NvidiaSmiGpuQuery {

    private record Metric(UsageField field, String unit, ValueScale scale, List<String> columns) {
    }

    private static final String REASONS = "clocks_event_reasons.";
    private static final String ACTIVE = REASONS + "active";

    /** The per-reason column of each reason nvidia-smi has one for: its name in lower case. */
    private static final Map<ClockEventReason, String> REASON_COLUMNS = new EnumMap<>(ClockEventReason.class);

    // nvidia-smi heads a column with its canonical name whichever alias was queried; accept the aliases too
    private static final Map<String, String> ALIASES = new HashMap<>(Map.of(
            "gpu_uuid", "uuid",
            "gpu_name", "name",
            "clocks.sm", "clocks.current.sm",
            "clocks_throttle_reasons.active", ACTIVE,
            "gpu.power.draw.average", "power.draw.average",
            "gpu.power.draw.instant", "power.draw.instant"));

    static {
        for (ClockEventReason reason : ClockEventReason.values()) {
            if (reason != ClockEventReason.DISPLAY_CLOCK_SETTING) {
                String column = reason.name().toLowerCase(Locale.ROOT);
                REASON_COLUMNS.put(reason, REASONS + column);
                ALIASES.put("clocks_throttle_reasons." + column, REASONS + column);
            }
        }
    }

    private static final String BITMASK = "bitmask";
    static final String DRIVER_VERSION = "driver_version";
    /** The source a driver sighting from here names. */
    public static final String SOURCE = "nvidia-smi";

    private static final List<Metric> METRICS = List.of(
            new Metric(UsageField.GPU_UTIL, "%", ValueScale.PERCENT, List.of("utilization.gpu")),
            new Metric(UsageField.FB_USED_MIB, "MiB", ValueScale.QUANTITY, List.of("memory.used")),
            new Metric(UsageField.FB_FREE_MIB, "MiB", ValueScale.QUANTITY, List.of("memory.free")),
            new Metric(UsageField.FB_RESERVED_MIB, "MiB", ValueScale.QUANTITY, List.of("memory.reserved")),
            // power.draw is a 1 s average on Ampere and newer; the explicit forms stand in when it is not queried
            new Metric(UsageField.POWER_W, "W", ValueScale.QUANTITY,
                    List.of("power.draw", "power.draw.average", "power.draw.instant")),
            new Metric(UsageField.SM_CLOCK_MHZ, "MHz", ValueScale.QUANTITY, List.of("clocks.current.sm")),
            new Metric(UsageField.THROTTLE_REASONS, BITMASK, ValueScale.CODE,
                    List.of("clocks_event_reasons.active")));

    private NvidiaSmiGpuQuery() {
    }

    /**
     * @param zone the zone of the host that ran nvidia-smi: its timestamps are local time
     * @param node the node the body came from; null to use a {@code hostname} column where one is queried
     */
    public static List<UsageObservation> parse(String body, ZoneId zone, String node) {
        return read(body, zone, node).observations();
    }

    /**
     * The observations of {@link #parse}, and the driver version of each card where {@code driver_version} is
     * queried: once per node, card and version, at its first row's time.
     */
    public static UsageMapping read(String body, ZoneId zone, String node) {
        Table table = NvidiaSmiCsv.read(body, ALIASES);
        Column uuid = NvidiaSmiCsv.require(table, "uuid", "add uuid to --query-gpu");
        Column timestamp = NvidiaSmiCsv.require(table, "timestamp", "add timestamp to --query-gpu");
        List<Metric> present = METRICS.stream()
                .filter(metric -> metric.columns().stream().anyMatch(table.columns()::containsKey))
                .toList();
        Map<ClockEventReason, Column> reasonColumns = new EnumMap<>(ClockEventReason.class);
        REASON_COLUMNS.forEach((reason, name) -> {
            if (table.column(name) != null) {
                reasonColumns.put(reason, table.column(name));
            }
        });
        if (present.isEmpty() && reasonColumns.isEmpty()) {
            throw new UsageParseException(table.headerLine(), "no metric column; query at least one of "
                    + METRICS.stream().map(metric -> metric.columns().get(0)).collect(Collectors.joining(", ")));
        }
        for (Metric metric : present) {
            for (String name : metric.columns()) {
                Column column = table.column(name);
                if (column != null && !BITMASK.equals(metric.unit())) {
                    NvidiaSmiCsv.requireUnit(table, column, metric.unit());
                }
            }
        }
        if (table.rows().isEmpty()) {
            throw new UsageParseException(table.headerLine(), "no GPU rows after the header");
        }
        Column model = table.column("name");
        Column hostname = table.column("hostname");
        String given = node == null || node.isBlank() ? null : node;
        Column driver = table.column(DRIVER_VERSION);
        UsageMapping.Builder out = new UsageMapping.Builder();
        for (Row row : table.rows()) {
            String gpu = NvidiaSmiCsv.text(row, uuid);
            Instant at = NvidiaSmiCsv.timestamp(row, timestamp, zone);
            String onNode = given != null ? given : optional(row, hostname);
            out.driverVersion(onNode, gpu, optional(row, driver), SOURCE, at,
                    "line " + row.line() + ", " + DRIVER_VERSION + " of " + gpu);
            Double mask = null;
            for (Metric metric : present) {
                Double value = value(table, row, metric);
                if (value != null) {
                    out.add(UsageObservation.device(gpu, onNode, optional(row, model), metric.field(), value, at));
                    mask = metric.field() == UsageField.THROTTLE_REASONS ? value : mask;
                }
            }
            reasons(row, mask, reasonColumns, UsageObservation.device(gpu, onNode, optional(row, model),
                    UsageField.THROTTLE_REASONS, mask == null ? 0 : mask, at), out);
        }
        return out.build();
    }

    /** The row's clocks-event reasons, one 0/1 observation each: from the bitmask, else from the per-reason columns. */
    private static void reasons(Row row, Double mask, Map<ClockEventReason, Column> columns, UsageObservation series,
                                UsageMapping.Builder out) {
        if (mask != null) {
            ClockEvents.Decoded decoded = ClockEvents.decode(mask.longValue());
            if (decoded.unknownBits() != 0) {
                out.note(ClockEvents.unknownBits("line " + row.line() + ", " + ACTIVE, decoded));
            }
            decoded.values().forEach(v -> out.add(series.with(v.reason().field(), v.value())));
            return;
        }
        columns.forEach((reason, column) -> {
            Double active = NvidiaSmiCsv.activeFlag(row, column);
            if (active != null) {
                out.add(series.with(reason.field(), active));
            }
        });
    }

    /** The first of the metric's columns that holds a value in this row, in its field's unit. */
    private static Double value(Table table, Row row, Metric metric) {
        for (String name : metric.columns()) {
            Column column = table.column(name);
            if (column == null) {
                continue;
            }
            Double raw = BITMASK.equals(metric.unit()) ? NvidiaSmiCsv.bitmask(row, column)
                    : NvidiaSmiCsv.number(row, column, metric.unit());
            if (raw != null) {
                Double value = metric.scale().normalise(raw);
                if (value == null) {
                    throw new UsageParseException(row.line(), "column " + name + ": " + raw + " is not a "
                            + metric.scale().describe());
                }
                return value;
            }
        }
        return null;
    }

    private static String optional(Row row, Column column) {
        if (column == null) {
            return null;
        }
        String cell = row.cell(column);
        return NvidiaSmiCsv.missing(cell) ? null : cell;
    }
}
