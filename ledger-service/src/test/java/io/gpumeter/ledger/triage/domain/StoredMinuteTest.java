package io.gpumeter.ledger.triage.domain;

import io.gpumeter.common.fact.UsagePartial;
import io.gpumeter.common.fact.UsageScope;
import io.gpumeter.ledger.usage.domain.MinuteFolds;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** A stored minute given back as a partial folds, in the intake, into the row it was. */
class StoredMinuteTest {

    static final Instant MINUTE = Instant.parse("2026-03-10T10:30:00Z");

    static MinuteFolds.Fold folded(UsagePartial p) {
        MinuteFolds folds = MinuteFolds.of(List.of(), List.of(p));
        assertEquals(1, folds.rows().size());
        return folds.rows().values().iterator().next();
    }

    @Test
    void aMinuteOfSeveralSecondsKeepsItsSecondsSumAndMost() {
        // seconds 5, 20 and 45 read 100, 300 and 200: sum 600, most 300
        long seconds = (1L << 5) | (1L << 20) | (1L << 45);
        StoredMinute row = new StoredMinute("GPU-1", "DEVICE", "", "FB_USED_MIB", MINUTE, 600, 300, seconds);
        UsagePartial p = row.partial("node-1");
        assertArrayEquals(new int[]{5000, 20000, 45000}, p.millis());
        assertEquals(300, p.values()[0], "the most in the first second");
        MinuteFolds.Fold f = folded(p);
        assertEquals(seconds, f.seconds());
        assertEquals(600, f.sum(), 1e-9);
        assertEquals(300, f.max(), 1e-9);
        assertEquals("node-1", p.node());
        assertNull(p.pod(), "a card's own series names no pod");
    }

    @Test
    void aContainersAndAProcesssSeriesNameTheirPodAsTheExporterDid() {
        UsagePartial container = new StoredMinute("GPU-1", "CONTAINER", "ml/oomed/main", "VGPU_MEMORY_USED_MIB", MINUTE,
                30000, 30000, 1L << 10).partial(null);
        assertEquals(UsageScope.CONTAINER, container.scope());
        assertEquals(List.of("ml", "oomed", "main"), List.of(container.namespace(), container.pod(), container.container()));
        assertEquals("ml/oomed/main", container.scopeKey());
        assertEquals(30000, folded(container).max(), 1e-9);

        UsagePartial process = new StoredMinute("GPU-1", "PROCESS", "ml/oomed/main/4242", "FB_USED_MIB", MINUTE,
                10, 10, 1L).partial(null);
        assertEquals("oomed", process.pod());
        UsagePartial barePid = new StoredMinute("GPU-1", "PROCESS", "4242", "FB_USED_MIB", MINUTE, 10, 10, 1L).partial(null);
        assertNull(barePid.pod(), "a bare pid names no pod");
    }

    @Test
    void aRowWithoutASecondGivesNothing() {
        assertNull(new StoredMinute("GPU-1", "DEVICE", "", "FB_USED_MIB", MINUTE, 0, 0, 0).partial(null));
    }
}
