package io.gpumeter.slo.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.slo.acceptance.Plan.Metric;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * A cell's allocated, used and idle cost over the window: each of its pods' own GPU-hours on each GPU model (the
 * ledger's, per pod and model) at the price billing-service charged the pod's namespace per GPU-hour of that model in
 * that window ({@code rate}, the rate cards in force). Used and idle add up to allocated, as on billing's reports. slo-service prices
 * nothing itself: without billing's line for a namespace, the cost is missing.
 */
final class CostFigures {

    private CostFigures() {
    }

    static Figures.Figure of(Metric metric, CellData cell, FleetFigures fleet) {
        StringBuilder csv = new StringBuilder("pod,gpu_model,allocated_gpu_hours,used_gpu_hours,rate,currency,"
                + "allocated_cost,used_cost,idle_cost\n");
        double allocatedCost = 0;
        double usedCost = 0;
        List<String> unpriced = new ArrayList<>();
        boolean held = false;
        for (String pod : cell.pods()) {
            for (JsonNode hours : FleetFigures.podRows(fleet.hoursByPod, pod)) {
                Double a = FleetFigures.number(hours, "allocatedGpuHours");
                Double u = FleetFigures.number(hours, "usedGpuHours");
                if (a == null || a == 0) {
                    continue;
                }
                held = true;
                String namespace = pod.substring(0, pod.indexOf('/'));
                String model = hours.path("group").path("model").asText("");
                JsonNode line = line(fleet.costsByNamespace, namespace, model);
                Double rate = FleetFigures.number(line, "rate");
                if (rate == null) {
                    unpriced.add(namespace + " on " + model);
                    continue;
                }
                double used = u == null ? 0 : u;
                allocatedCost += a * rate;
                usedCost += used * rate;
                csv.append(PackCsv.line(pod, model, a, used, rate, line.path("currency"), money(a * rate),
                        money(used * rate), money((a - used) * rate)));
            }
        }
        List<Run.Call> calls = new ArrayList<>(cell.calls());
        calls.addAll(Figures.calls(fleet.hoursByPod));
        calls.addAll(Figures.calls(fleet.costsByNamespace));
        if (!held) {
            return new Figures.Figure(null, "no allocated GPU-hours for the cell's pods " + cell.pods(), calls,
                    csv.toString());
        }
        if (!unpriced.isEmpty()) {
            return new Figures.Figure(null, fleet.costsByNamespace == null || fleet.costsByNamespace.answer() == null
                    ? "billing-service gave no cost for the window"
                    : "billing-service priced nothing for " + new TreeSet<>(unpriced) + " in the window",
                    calls, csv.toString());
        }
        double value = switch (metric) {
            case ALLOCATED_COST -> allocatedCost;
            case USED_COST -> usedCost;
            default -> allocatedCost - usedCost;
        };
        return new Figures.Figure(value, null, calls, csv.toString());
    }

    /** The currency of billing's answer, or null without one. */
    static String currency(FleetFigures fleet) {
        JsonNode answer = fleet.costsByNamespace == null ? null : fleet.costsByNamespace.answer();
        return answer == null || !answer.path("currency").isTextual() ? null : answer.path("currency").asText();
    }

    /**
     * billing's line of a namespace on a GPU model. billing prices spellings of one model as one (a DRA slice's
     * "NVIDIA A100-SXM4-80GB" and the device plugin's "NVIDIA-A100-SXM4-80GB") and prints one of them, so models are
     * compared as billing compares them ({@link #modelKey}).
     */
    private static JsonNode line(LedgerReads.Read<JsonNode> read, String group, String model) {
        if (read == null || read.answer() == null) {
            return null;
        }
        String key = modelKey(model);
        for (JsonNode line : read.answer().path("lines")) {
            if (group.equals(line.path("group").asText(null)) && key.equals(modelKey(line.path("gpuModel").asText("")))) {
                return line;
            }
        }
        return null;
    }

    /** A model name as billing's rate card matches it: lower case, each run of '-', '_' or spaces one '-', trimmed. */
    static String modelKey(String model) {
        String key = SEPARATORS.matcher(model.strip().toLowerCase(Locale.ROOT)).replaceAll("-");
        return EDGES.matcher(key).replaceAll("");
    }

    private static final java.util.regex.Pattern SEPARATORS = java.util.regex.Pattern.compile("[-_\\s]+");
    private static final java.util.regex.Pattern EDGES = java.util.regex.Pattern.compile("^-+|-+$");

    private static String money(double v) {
        return String.format(Locale.ROOT, "%.4f", v);
    }
}
