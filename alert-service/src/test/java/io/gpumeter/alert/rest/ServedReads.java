package io.gpumeter.alert.rest;

import io.gpumeter.common.testing.Contract;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The reads alert-service makes of the ledger, slo-service and billing, by path, with the example each serving
 * service's own tests recorded: an answer a test puts on the stand-in must hold no field the server's example lacks.
 */
final class ServedReads {

    private static final Map<String, Contract> BY_PATH = new LinkedHashMap<>();

    static {
        Contract occupants = Contract.of("ledger", "occupants");
        BY_PATH.put("/api/v1/gpu-hours", Contract.of("ledger", "gpu-hours").freeKeysAt("group"));
        BY_PATH.put(FakeLedger.FLEET_OCCUPANTS, occupants);
        BY_PATH.put("/api/v1/nodes/[^/]+/occupants", occupants);
        BY_PATH.put("/api/v1/gpus/[^/]+/occupants", occupants);
        BY_PATH.put(FakeLedger.USAGE_SERIES, Contract.of("ledger", "usage-series"));
        BY_PATH.put("/api/v1/violations", Contract.of("ledger", "violations"));
        BY_PATH.put(FakeLedger.INCIDENTS, Contract.of("ledger", "incidents"));
        BY_PATH.put(FakeLedger.INCIDENTS + "/[^/]+", Contract.of("ledger", "incident"));
        BY_PATH.put("/api/v1/slo-states", Contract.of("slo", "slo-states"));
        BY_PATH.put("/api/v1/budget-forecasts", Contract.of("billing", "budget-forecasts"));
        BY_PATH.put("/api/v1/cost-anomalies", Contract.of("billing", "cost-anomalies"));
    }

    private ServedReads() {
    }

    /** The answer, once checked against the example of the read at this path (a card's own usage: its points). */
    static String check(String path, String json) {
        if (path.matches("/api/v1/gpus/[^/]+/usage")) {
            BY_PATH.get(FakeLedger.USAGE_SERIES).check("[{\"points\":" + json + "}]");
            return json;
        }
        return BY_PATH.entrySet().stream().filter(e -> path.matches(e.getKey())).findFirst()
                .map(e -> e.getValue().check(json)).orElse(json);
    }
}
