package io.gpumeter.slo.rest;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * The stand-in ledger's bulk host read ({@code POST /api/v1/host/series}): the minutes a test put in
 * {@link #CONTAINERS} and {@link #NODES}, answered as the ledger answers them — of the cluster, pods ("namespace/pod")
 * and nodes named, in [from, to), ordered by pod, container, then time and by node, then time, every field of the
 * ledger's points present (null when not reported) — and refused as the ledger refuses (400 naming {@code cluster} or
 * {@code pods}); 500 while {@link FakeLedger#FAILING} holds "host:" and one of the pods asked.
 */
final class FakeHost {

    /** A container's minute of a GPU pod; container "" is the pod itself. Amounts are over {@code coveredSeconds}. */
    record ContainerMinute(String namespace, String pod, String container, String node, Instant at,
                           double coveredSeconds, Double cpuSeconds, Double cfsPeriods, Double cfsThrottledPeriods,
                           Double cpuLimitCores, Double netReceiveBytes, Double netTransmitBytes) {

        String json() {
            return "{\"cluster\":\"c1\",\"namespace\":" + FakeLedger.str(namespace) + ",\"pod\":" + FakeLedger.str(pod)
                    + ",\"container\":" + FakeLedger.str(container) + ",\"node\":" + FakeLedger.str(node) + ",\"at\":\""
                    + at + "\",\"spanSeconds\":60,\"minutes\":1,\"coveredSeconds\":" + coveredSeconds + ",\"samples\":4,"
                    + "\"cpuSeconds\":" + cpuSeconds + ",\"cfsPeriods\":" + cfsPeriods + ",\"cfsThrottledPeriods\":"
                    + cfsThrottledPeriods + ",\"cpuLimitCores\":" + cpuLimitCores + ",\"fsReadBytes\":null,"
                    + "\"fsWriteBytes\":null,\"netReceiveBytes\":" + netReceiveBytes + ",\"netTransmitBytes\":"
                    + netTransmitBytes + "}";
        }
    }

    /** A GPU node's minute; pressure stalls in seconds over {@code coveredSeconds}. */
    record NodeMinute(String node, Instant at, double coveredSeconds, Double cpuPressureWaitingSeconds,
                      Double ioPressureStalledSeconds, Double netReceiveBytes, Double netTransmitBytes) {

        String json() {
            return "{\"cluster\":\"c1\",\"node\":" + FakeLedger.str(node) + ",\"at\":\"" + at + "\",\"spanSeconds\":60,"
                    + "\"minutes\":1,\"coveredSeconds\":" + coveredSeconds + ",\"samples\":4,\"cpus\":64,"
                    + "\"cpuIdleSeconds\":3000.0,\"cpuIowaitSeconds\":5.0,\"cpuUserSeconds\":500.0,"
                    + "\"cpuSystemSeconds\":100.0,\"cpuOtherSeconds\":0.0,\"cpuPressureWaitingSeconds\":"
                    + cpuPressureWaitingSeconds + ",\"ioPressureStalledSeconds\":" + ioPressureStalledSeconds
                    + ",\"memoryPressureStalledSeconds\":0.0,\"netReceiveBytes\":" + netReceiveBytes
                    + ",\"netTransmitBytes\":" + netTransmitBytes + ",\"netReceiveDrops\":0.0,\"netTransmitDrops\":0.0}";
        }
    }

    static final List<ContainerMinute> CONTAINERS = new CopyOnWriteArrayList<>();
    static final List<NodeMinute> NODES = new CopyOnWriteArrayList<>();

    /** A status and a body. */
    record Answer(int status, String json) {
    }

    private FakeHost() {
    }

    static Answer series(JsonNode asked) {
        if (!asked.path("cluster").isTextual() || asked.path("cluster").asText().isBlank()) {
            return problem("cluster", "cluster is required");
        }
        Set<String> pods = names(asked.path("pods"));
        Set<String> nodes = names(asked.path("nodes"));
        if (pods.isEmpty() && nodes.isEmpty()) {
            return problem("pods", "name at least one pod (\\\"namespace/pod\\\") or node");
        }
        if (pods.stream().anyMatch(p -> FakeLedger.FAILING.contains("host:" + p))) {
            return new Answer(500, "{\"title\":\"Internal Server Error\"}");
        }
        if (pods.size() > 500 || nodes.size() > 500) {
            return problem(pods.size() > 500 ? "pods" : "nodes", "at most 500");
        }
        boolean c1 = asked.path("cluster").asText().equals("c1");
        Instant from = Instant.parse(asked.path("from").asText());
        Instant to = Instant.parse(asked.path("to").asText());
        List<String> containers = CONTAINERS.stream()
                .filter(c -> c1 && pods.contains(c.namespace() + "/" + c.pod()) && !c.at().isBefore(from) && c.at().isBefore(to))
                .sorted(Comparator.comparing((ContainerMinute c) -> c.namespace() + "/" + c.pod())
                        .thenComparing(ContainerMinute::container).thenComparing(ContainerMinute::at))
                .map(ContainerMinute::json).toList();
        List<String> nodeRows = NODES.stream()
                .filter(n -> c1 && nodes.contains(n.node()) && !n.at().isBefore(from) && n.at().isBefore(to))
                .sorted(Comparator.comparing(NodeMinute::node).thenComparing(NodeMinute::at))
                .map(NodeMinute::json).toList();
        return new Answer(200, "{\"containers\":" + array(containers) + ",\"nodes\":" + array(nodeRows) + "}");
    }

    private static Set<String> names(JsonNode array) {
        Set<String> out = new LinkedHashSet<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static Answer problem(String field, String detail) {
        return new Answer(400, "{\"title\":\"Bad Request\",\"status\":400,\"field\":\"" + field + "\",\"detail\":\""
                + detail + "\"}");
    }

    private static String array(List<String> items) {
        return items.stream().collect(Collectors.joining(",", "[", "]"));
    }

    /** Every host read made since {@code before} calls had been made, as its body. */
    static List<String> reads(int before) {
        List<String> out = new ArrayList<>();
        for (String r : FakeLedger.REQUESTS.subList(before, FakeLedger.REQUESTS.size())) {
            if (r.startsWith("/api/v1/host/series?")) {
                out.add(r.substring(r.indexOf('?') + 1));
            }
        }
        return out;
    }
}
