package io.gpumeter.collector.host;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HostTrackTest {

    private static final long T0 = 1_782_468_000_000L; // a whole minute
    private static final long GAP = 300_000;

    private static HostReading cpu(long atMs, double value) {
        return new HostReading("ml", "train-0", "main", HostSlot.CPU_SECONDS, "/k/p/c", value, atMs);
    }

    /** Feeds (seconds after T0, value) pairs one body each; returns every minute closed. */
    private static List<HostTrack.Minute> feed(String samples) {
        HostTrack track = new HostTrack(GAP);
        List<HostTrack.Minute> closed = new ArrayList<>();
        for (String pair : samples.split(" ")) {
            String[] p = pair.split("=");
            long at = T0 + (long) (Double.parseDouble(p[0]) * 1000);
            HostTrack.Applied applied = track.apply(List.of(cpu(at, Double.parseDouble(p[1]))), at);
            closed.addAll(applied.closed());
            track = applied.next();
        }
        return closed;
    }

    /** samples "s=v …"; the first minute's CPU seconds and covered seconds once closed. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "a steady counter, scraped every 30 s       | 0=100 30=103 60=106 90=109          | 6    | 60",
            "a reset: the lower value is the increase   | 0=100 30=103 60=2 90=5              | 5    | 60",
            "an interval across the minute's end        | 0=100 50=110 70=114                 | 12   | 60",
            "a second sample at the same second: once   | 0=100 30=103 30=999 60=106          | 6    | 60",
            "an older sample after a newer one: ignored | 0=100 30=103 20=1 60=106            | 6    | 60",
            "a gap longer than the look-back: not joined| 0=100 301=200 330=203 360=206       | 6    | 59",
    })
    void countersIncreaseAsPrometheusReadsThem(String name, String samples, double cpuSeconds, int coveredSeconds) {
        HostTrack.Minute first = feed(samples).get(0);
        assertEquals(cpuSeconds, first.amount(HostSlot.CPU_SECONDS), 1e-9, name);
        assertEquals(coveredSeconds * 1000, first.covered(), name);
    }

    @Test
    void aMinuteClosesOnlyOnceASampleAtOrAfterItsEndArrived() {
        HostTrack track = new HostTrack(GAP);
        HostTrack.Applied a = track.apply(List.of(cpu(T0, 1)), T0);
        HostTrack.Applied b = a.next().apply(List.of(cpu(T0 + 30_000, 2)), T0 + 30_000);
        assertTrue(a.closed().isEmpty() && b.closed().isEmpty());
        HostTrack.Applied c = b.next().apply(List.of(cpu(T0 + 60_000, 3)), T0 + 60_000);
        assertEquals(1, c.closed().size());
        assertEquals(T0, c.closed().get(0).minuteMs());
        assertEquals(2, c.closed().get(0).samples(), "the scrapes at :00 and :30");
    }

    @Test
    void applyingLeavesTheTrackItStartedFromAsItWas() {
        HostTrack start = new HostTrack(GAP).apply(List.of(cpu(T0, 1), cpu(T0 + 30_000, 2)), T0).next();
        HostTrack.Applied once = start.apply(List.of(cpu(T0 + 60_000, 4)), T0 + 60_000);
        HostTrack.Applied again = start.apply(List.of(cpu(T0 + 60_000, 4)), T0 + 60_000);
        assertEquals(1, once.closed().size());
        assertEquals(once.closed().get(0).amount(HostSlot.CPU_SECONDS), again.closed().get(0).amount(HostSlot.CPU_SECONDS),
                "a body whose minutes were not delivered yields them again");
        assertEquals(3, again.closed().get(0).amount(HostSlot.CPU_SECONDS), 1e-9);
    }

    @Test
    void aRowFallenSilentClosesWhatItHasAndIsForgotten() {
        HostTrack track = new HostTrack(GAP).apply(List.of(cpu(T0, 1)), T0).next()
                .apply(List.of(cpu(T0 + 30_000, 2)), T0 + 30_000).next();
        HostTrack.Applied swept = track.sweep(T0 + 30_000 + GAP + 1);
        assertEquals(1, swept.closed().size());
        assertEquals(30_000, swept.closed().get(0).covered(), "only the half it covered");
        assertTrue(swept.next().empty());
    }

    @Test
    void aLimitIsTheMinutesLastGaugeAndHoldsUntilChanged() {
        HostTrack track = new HostTrack(GAP);
        List<HostReading> first = List.of(cpu(T0, 1),
                new HostReading("ml", "train-0", "main", HostSlot.CPU_QUOTA, "/k/p/c", 200_000, T0),
                new HostReading("ml", "train-0", "main", HostSlot.CPU_PERIOD, "/k/p/c", 100_000, T0));
        HostTrack next = track.apply(first, T0).next();
        next = next.apply(List.of(cpu(T0 + 60_000, 2)), T0 + 60_000).next();
        HostTrack.Applied later = next.apply(List.of(cpu(T0 + 120_000, 3)), T0 + 120_000);
        HostTrack.Minute second = later.closed().get(0);
        assertEquals(T0 + 60_000, second.minuteMs());
        assertEquals(2.0, HostFacts.container("n1", second).cpuLimitCores(), "no quota read this minute: the last one holds");
        assertNull(HostFacts.container("n1", second).netReceiveBytes(), "a quantity never reported is null, not 0");
    }
}
