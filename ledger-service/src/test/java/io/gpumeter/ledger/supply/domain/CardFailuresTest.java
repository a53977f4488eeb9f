package io.gpumeter.ledger.supply.domain;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CardFailuresTest {

    @ParameterizedTest(name = "{0} {1}: {2}")
    @CsvSource({
            "gpu,         gpu-lost,            true",
            "node,        gpu-lost,            true",
            "dcgm-health, gpu-health,          true",
            "gpu,         xid-48,              true",
            "dcgm,        xid-79,              true",
            "dcgm,        xid-9999,            true",
            "gpu,         xid-13,              false",
            "dcgm,        xid-43,              false",
            "node,        mig-reconfiguration, false",
            "mig,         mig-inconsistent,    false",
            "pod,         gpu-lost,            false",
            "pod,         oom,                 false",
            "gpu,         xid-,                false",
    })
    void countsWhatTheCardItselfNeedsRepairedFor(String scope, String cause, boolean counts) {
        assertEquals(counts, CardFailures.counts(scope, cause));
    }
}
