package io.gpumeter.slo.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.slo.acceptance.Plan.Metric;
import io.gpumeter.slo.domain.LatencySummary;
import io.gpumeter.slo.domain.Sli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One figure of one cell, with the reads it came from and the curve behind it as CSV. A figure without data is
 * null and says why; it is never filled in.
 */
public final class Figures {

    /**
     * A cell's figure: {@code value} null when there was nothing to compute it from ({@code missing} says what);
     * {@code note} what a reader of a figure that was computed should know of it (part of it not measured), else null.
     */
    public record Figure(Double value, String missing, List<Run.Call> calls, String csv, String note) {

        public Figure(Double value, String missing, List<Run.Call> calls, String csv) {
            this(value, missing, calls, csv, null);
        }
    }

    private Figures() {
    }

    public static Figure of(Metric metric, Sli sli, CellData cell, Map<String, CellData> all, FleetFigures fleet) {
        return switch (metric) {
            case P50, P95, P99, MAX -> latency(metric, sli, cell);
            case THROUGHPUT -> from(cell.throughput(), "no requests", cell.calls(), requestCsv(cell));
            case TOKENS_PER_S -> from(cell.tokensPerSecond(), "no generation tokens counted for the cell's pods (vLLM's"
                    + " vllm:generation_tokens_total, sent as generationTokensTotal to POST /api/v1/ingest/engine-gauges)",
                    cell.calls(), tokenCsv(cell));
            case FAILURE_RATE -> from(cell.failureRate(), "no requests", cell.calls(), requestCsv(cell));
            case COLD_START -> ColdStarts.figure(cell);
            case P99_SPREAD -> P99Spread.figure(cell, sli == null ? Sli.TTFT : sli);
            case JITTER_EVENT_RATE -> JitterRate.figure(cell);
            case MTTR -> Mttr.figure(cell);
            case INTERFERENCE_FACTOR -> fleet.interference.containsKey(cell.cell().name())
                    ? ownFactor(fleet.interference.get(cell.cell().name()), cell, sli == null ? Sli.TTFT : sli)
                    : interference(sli == null ? Sli.TTFT : sli, cell, all);
            case FRAGMENTATION -> fragmentation(fleet);
            case QUEUE_WAIT_P50, QUEUE_WAIT_P95 -> queueWait(metric, cell, fleet);
            case USED_ALLOCATED -> usedAllocated(cell, fleet);
            case TOKENS_PER_JOULE -> EnergyFigures.tokensPerJoule(cell, fleet);
            case ALLOCATED_COST, USED_COST, IDLE_COST -> CostFigures.of(metric, cell, fleet);
        };
    }

    private static Figure latency(Metric metric, Sli sli, CellData cell) {
        CellData.SliData data = cell.latency().get(sli);
        LatencySummary s = data == null ? LatencySummary.EMPTY : data.total();
        Double value = switch (metric) {
            case P50 -> s.p50Ms();
            case P95 -> s.p95Ms();
            case P99 -> s.p99Ms();
            default -> s.maxMs();
        };
        return from(value, "no " + sli + " latency recorded for the cell's pods in the window", cell.calls(),
                latencyCsv(cell, sli));
    }

    /**
     * The cell's p99 over the p99 of the plan's DEDICATED cell of the same workload: the control group's baseline.
     * A dedicated cell itself answers 1 when it has data.
     */
    private static Figure interference(Sli sli, CellData cell, Map<String, CellData> all) {
        CellData baseline = all.values().stream().filter(c -> c.cell().form() == Plan.Form.DEDICATED
                && c.cell().workload().equals(cell.cell().workload())).findFirst().orElse(null);
        if (baseline == null) {
            return new Figure(null, "the plan has no DEDICATED cell of workload " + cell.cell().workload()
                    + " to compare with", cell.calls(), latencyCsv(cell, sli));
        }
        Double shared = p99(cell, sli);
        Double dedicated = p99(baseline, sli);
        List<Run.Call> calls = new ArrayList<>(cell.calls());
        if (baseline != cell) {
            calls.addAll(baseline.calls());
        }
        String csv = latencyCsv(cell, sli) + (baseline == cell ? "" : latencyCsv(baseline, sli)
                .substring(latencyCsv(baseline, sli).indexOf('\n') + 1));
        if (shared == null || dedicated == null || dedicated == 0) {
            return new Figure(null, "no " + sli + " p99 for " + (shared == null ? cell : baseline).cell().name(),
                    calls, csv);
        }
        return new Figure(shared / dedicated, null, calls, csv);
    }

    private static Figure ownFactor(LedgerReads.Read<Double> read, CellData cell, Sli sli) {
        List<Run.Call> calls = new ArrayList<>(cell.calls());
        calls.add(0, read.call());
        return new Figure(read.answer(), "no shared minutes of the service with dedicated ones to compare with",
                calls, latencyCsv(cell, sli));
    }

    static Double p99(CellData cell, Sli sli) {
        CellData.SliData d = cell.latency().get(sli);
        return d == null ? null : d.total().p99Ms();
    }

    private static Figure fragmentation(FleetFigures fleet) {
        JsonNode groups = fleet.fragmentation == null || fleet.fragmentation.answer() == null ? null
                : fleet.fragmentation.answer().path("groups");
        Double value = null;
        StringBuilder csv = new StringBuilder("group,cards,free_mib,overall\n");
        if (groups != null && groups.isArray()) {
            for (JsonNode g : groups) {
                JsonNode memory = g.path("memory");
                csv.append(PackCsv.line(g.path("key"), memory.path("cards"), memory.path("freeMiB"),
                        memory.path("overall")));
                if (value == null && memory.path("overall").isNumber()) {
                    value = memory.path("overall").asDouble();
                }
            }
        }
        return from(value, "the ledger answered no fragmentation figure", calls(fleet.fragmentation), csv.toString());
    }

    private static Figure queueWait(Metric metric, CellData cell, FleetFigures fleet) {
        String tenant = cell.cell().selector().tenant();
        LedgerReads.Read<JsonNode> read = tenant != null ? fleet.waitByTenant : fleet.waitByClusterQueue;
        String key = tenant != null ? tenant : cell.clusterQueues().isEmpty() ? null : cell.clusterQueues().get(0);
        String field = metric == Metric.QUEUE_WAIT_P50 ? "p50Seconds" : "p95Seconds";
        StringBuilder csv = new StringBuilder("key,count,p50_seconds,p95_seconds,p99_seconds,max_seconds\n");
        for (JsonNode row : FleetFigures.rows(read)) {
            csv.append(PackCsv.line(row.path("key"), row.path("count"), row.path("p50Seconds"),
                    row.path("p95Seconds"), row.path("p99Seconds"), row.path("maxSeconds")));
        }
        List<Run.Call> calls = new ArrayList<>(cell.calls());
        calls.addAll(calls(read));
        Double value = key == null ? null : FleetFigures.number(FleetFigures.row(read, key), field);
        return new Figure(value, key == null ? "the ledger knows no queue the cell's pods went through"
                : "nothing admitted through " + key + " in the window", calls, csv.toString());
    }

    /**
     * The cell's own pods' used GPU-hours over their allocated GPU-hours in the window, as the ledger answers them per
     * pod: never a namespace's or a tenant's, which hold other pods too.
     */
    private static Figure usedAllocated(CellData cell, FleetFigures fleet) {
        double used = 0;
        double allocated = 0;
        StringBuilder csv = new StringBuilder("pod,gpu_model,allocated_gpu_hours,used_gpu_hours\n");
        for (String pod : cell.pods()) {
            for (JsonNode row : FleetFigures.podRows(fleet.hoursByPod, pod)) {
                Double a = FleetFigures.number(row, "allocatedGpuHours");
                Double u = FleetFigures.number(row, "usedGpuHours");
                csv.append(PackCsv.line(pod, row.path("group").path("model"), a, u));
                allocated += a == null ? 0 : a;
                used += u == null ? 0 : u;
            }
        }
        List<Run.Call> calls = new ArrayList<>(cell.calls());
        calls.addAll(calls(fleet.hoursByPod));
        String missing = fleet.hoursByPod == null || fleet.hoursByPod.answer() == null
                ? "the ledger gave no GPU-hours" : cell.pods().isEmpty() ? "the cell has no pods in the window"
                : "no allocated GPU-hours for the cell's pods " + cell.pods();
        return new Figure(allocated > 0 ? used / allocated : null, missing, calls, csv.toString());
    }

    static String latencyCsv(CellData cell, Sli sli) {
        StringBuilder csv = new StringBuilder("cell,minute,requests,p50_ms,p95_ms,p99_ms,max_ms\n");
        CellData.SliData d = cell.latency().get(sli);
        if (d != null) {
            for (CellData.MinutePoint p : d.curve()) {
                LatencySummary s = p.latency();
                csv.append(PackCsv.line(cell.cell().name(), p.minute(), s.count(), ms(s.p50Ms()), ms(s.p95Ms()),
                        ms(s.p99Ms()), ms(s.maxMs())));
            }
        }
        return csv.toString();
    }

    static String tokenCsv(CellData cell) {
        StringBuilder csv = new StringBuilder("cell,pod,at,generation_tokens_total\n");
        cell.tokenReadings().forEach((pod, readings) -> readings.stream()
                .sorted(java.util.Comparator.comparing(io.gpumeter.slo.domain.TokenRate.Reading::at))
                .forEach(r -> csv.append(PackCsv.line(cell.cell().name(), pod, r.at(),
                        String.format(Locale.ROOT, "%.0f", r.value())))));
        return csv.toString();
    }

    static String requestCsv(CellData cell) {
        StringBuilder csv = new StringBuilder("cell,minute,requests,failed\n");
        cell.requestCurve().forEach(p -> csv.append(PackCsv.line(cell.cell().name(), p.minute(), p.requests(),
                p.failed())));
        return csv.toString();
    }

    private static String ms(Double v) {
        return v == null ? "" : String.format(Locale.ROOT, "%.3f", v);
    }

    static List<Run.Call> calls(LedgerReads.Read<JsonNode> read) {
        return read == null ? List.of() : List.of(read.call());
    }

    static Figure from(Double value, String missing, List<Run.Call> calls, String csv) {
        return new Figure(value, value == null ? missing : null, calls, csv);
    }
}
