package io.gpumeter.slo.rest;

import io.gpumeter.common.testing.Contract;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The ledger's reads slo-service makes, by path, with the example the ledger's own tests recorded: an answer
 * {@link FakeLedger} builds from its book must hold no field the ledger's example lacks.
 */
final class ServedReads {

    private static final Map<String, Contract> BY_PATH = new LinkedHashMap<>();

    static {
        BY_PATH.put("/api/v1/holdings", Contract.of("ledger", "holdings"));
        BY_PATH.put("/api/v1/card-holdings", Contract.of("ledger", "card-holdings"));
        BY_PATH.put("/api/v1/usage/series", Contract.of("ledger", "usage-series"));
        BY_PATH.put("/api/v1/pod-queues", Contract.of("ledger", "pod-queues"));
        BY_PATH.put("/api/v1/changes/bulk", Contract.of("ledger", "changes-bulk"));
        BY_PATH.put("/api/v1/changes/[^/]+/impact", Contract.of("ledger", "change-impact"));
        BY_PATH.put("/api/v1/host/series", Contract.of("ledger", "host-series"));
        BY_PATH.put("/api/v1/capacity/supply", Contract.of("ledger", "supply"));
        BY_PATH.put("/api/v1/demand", Contract.of("ledger", "demand"));
        BY_PATH.put("/api/v1/gpu-hours", Contract.of("ledger", "gpu-hours").freeKeysAt("group"));
    }

    private ServedReads() {
    }

    /** The answer, once checked against the ledger's example of the read at this path (other paths as they are). */
    static String check(String path, String json) {
        return BY_PATH.entrySet().stream().filter(e -> path.matches(e.getKey())).findFirst()
                .map(e -> e.getValue().check(json)).orElse(json);
    }
}
