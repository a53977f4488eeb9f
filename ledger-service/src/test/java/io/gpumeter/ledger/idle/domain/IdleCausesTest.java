package io.gpumeter.ledger.idle.domain;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class IdleCausesTest {

    private static BigDecimal s(long seconds) {
        return BigDecimal.valueOf(seconds);
    }

    @Test
    void hoursByCauseAddUpToTheNotBusyHoursWhereRoundingEachAloneWouldNot() {
        // 1 s is 0.000277… h, rounded 0.000278; three of them rounded alone make 0.000834, but 3 s is 0.000833 h
        IdleCauses causes = new IdleCauses(s(1), s(1), s(1), s(3));
        Map<String, BigDecimal> hours = causes.hoursBy(s(3));
        assertEquals(List.of("CPU_SATURATED", "IO_WAIT", "NETWORK", "UNEXPLAINED"), List.copyOf(hours.keySet()));
        assertEquals(new BigDecimal("0.000278"), hours.get("CPU_SATURATED"));
        assertEquals(new BigDecimal("0.000278"), hours.get("IO_WAIT"));
        assertEquals(new BigDecimal("0.000277"), hours.get("NETWORK"));
        assertEquals(0, hours.get("UNEXPLAINED").signum());
        assertEquals(IdleCauses.hours(s(3)), hours.values().stream().reduce(BigDecimal.ZERO, BigDecimal::add)
                .setScale(6));
    }

    @Test
    void whatNoCauseTookIsUnexplainedAndCoverageIsTheShareWithHostData() {
        IdleCauses causes = new IdleCauses(s(900), BigDecimal.ZERO, s(1800), s(2400));
        Map<String, BigDecimal> hours = causes.hoursBy(s(7200));
        assertEquals(new BigDecimal("0.25"), hours.get("CPU_SATURATED"));
        assertEquals(new BigDecimal("0.5"), hours.get("NETWORK"));
        assertEquals(new BigDecimal("1.25"), hours.get("UNEXPLAINED"));
        assertEquals(new BigDecimal("0.3333"), causes.coverage(s(7200)));
        assertNull(IdleCauses.NONE.coverage(BigDecimal.ZERO), "no not-busy time, no coverage");
        assertEquals(new IdleCauses(s(1800), BigDecimal.ZERO, s(3600), s(4800)), causes.plus(causes));
    }
}
