package io.gpumeter.ledger.service;

import io.gpumeter.ledger.idle.domain.IdleCauses;
import io.gpumeter.ledger.repository.IdleRepository.AllocatedPart;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A day's parts added up per holder before they are stored, as IdleGroups would add them per tenant or pod. */
class DayIdlePartsTest {

    private static BigDecimal n(String value) {
        return new BigDecimal(value);
    }

    private static AllocatedPart part(String cluster, String gpu, String tenant, String ns, String pod, String busy,
                                      String notBusy, String unmeasured, String cpu, String metrics) {
        return new AllocatedPart(cluster, gpu, tenant, ns, pod, n(busy), n(notBusy), n(unmeasured),
                new IdleCauses(n(cpu), BigDecimal.ZERO, BigDecimal.ZERO, n(cpu)), metrics);
    }

    @Test
    void aTenantsPartsOfManyCardsAreOnePartOnItsFirstCard() {
        List<AllocatedPart> sums = DayIdleParts.byHolder(List.of(
                part("c2", "GPU-A", "t1", null, null, "10", "20", "0", "5", "SM_ACTIVE"),
                part("c1", "GPU-Z", "t1", null, null, "1.5", "2.25", "3", "1", "GPU_UTIL"),
                part("c1", "GPU-B", "t2", null, null, "7", "0", "0", "0", null)));
        assertEquals(2, sums.size());
        AllocatedPart t1 = sums.stream().filter(p -> p.tenant().equals("t1")).findFirst().orElseThrow();
        // 10 + 1.5, 20 + 2.25, 0 + 3; CPU-saturated 5 + 1; on c1/GPU-Z, first of its cards by cluster then card
        assertEquals(List.of("c1", "GPU-Z"), List.of(t1.cluster(), t1.gpuUuid()));
        assertEquals(0, n("11.5").compareTo(t1.busy()));
        assertEquals(0, n("22.25").compareTo(t1.notBusy()));
        assertEquals(0, n("3").compareTo(t1.unmeasured()));
        assertEquals(0, n("6").compareTo(t1.causes().cpuSaturated()));
        assertEquals("GPU_UTIL,SM_ACTIVE", t1.metrics());
    }

    @Test
    void podsAreTheirOwnHoldersInTheirOwnCluster() {
        List<AllocatedPart> sums = DayIdleParts.byHolder(List.of(
                part("c1", "GPU-A", "t1", "ns", "p", "1", "1", "0", "0", null),
                part("c2", "GPU-A", "t1", "ns", "p", "2", "2", "0", "0", null),
                part("c1", "GPU-B", "t1", "ns", "p", "4", "4", "0", "0", null)));
        // the same namespace and pod in two clusters are two pods: c1's two parts add up, c2's stays apart
        assertEquals(2, sums.size());
        assertEquals(0, n("5").compareTo(sums.stream().filter(p -> p.cluster().equals("c1")).findFirst().orElseThrow().busy()));
        assertEquals(0, n("2").compareTo(sums.stream().filter(p -> p.cluster().equals("c2")).findFirst().orElseThrow().busy()));
    }
}
