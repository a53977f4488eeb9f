package io.gpumeter.ledger.demand.domain;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Hourly means of pending GPUs and the daily p95 peak, worked out by hand. */
class PendingHoursTest {

    static Instant at(String t) {
        return Instant.parse("2025-06-02T" + t + "Z");
    }

    @Test
    void aClippedFirstHourAndTheHoursOfAZoneWithAHalfHourOffset() {
        // 10:20 to 12:10 UTC: [10:20, 11:00), [11:00, 12:00), [12:00, 12:10)
        List<PendingHours.Hour> utc = PendingHours.over(at("10:20:00"), at("12:10:00"), ZoneOffset.UTC);
        assertEquals(List.of(new PendingHours.Hour(at("10:20:00"), at("11:00:00"), 10),
                new PendingHours.Hour(at("11:00:00"), at("12:00:00"), 11),
                new PendingHours.Hour(at("12:00:00"), at("12:10:00"), 12)), utc);
        // Kolkata is UTC+5:30: its hours start at :30 UTC; 10:20Z is 15:50 local
        List<PendingHours.Hour> kolkata = PendingHours.over(at("10:20:00"), at("12:10:00"), ZoneId.of("Asia/Kolkata"));
        assertEquals(List.of(new PendingHours.Hour(at("10:20:00"), at("10:30:00"), 15),
                new PendingHours.Hour(at("10:30:00"), at("11:30:00"), 16),
                new PendingHours.Hour(at("11:30:00"), at("12:10:00"), 17)), kolkata);
        assertEquals(List.of(), PendingHours.over(at("12:00:00"), at("12:00:00"), ZoneOffset.UTC));
    }

    @Test
    void aMeanIsTheGpusTimesThePartOfTheHourTheyWaited() {
        // [10:00, 13:00): 3 GPUs 10:15-11:45, 1 GPU 11:30-13:30 (past the end).
        // 10h: 3 x 45/60 = 2.25; 11h: 3 x 45/60 + 1 x 30/60 = 2.75; 12h: 1.
        List<PendingHours.Hour> hours = PendingHours.over(at("10:00:00"), at("13:00:00"), ZoneOffset.UTC);
        Demand.PendingPeak p = PendingHours.peak(hours, List.of(
                new PendingHours.Wait(new BigDecimal("3"), at("10:15:00"), at("11:45:00")),
                new PendingHours.Wait(BigDecimal.ONE, at("11:30:00"), at("13:30:00"))), 2);
        assertEquals(0, new BigDecimal("2.75").compareTo(p.peakGpus()));
        assertEquals(at("11:00:00"), p.peakHour());
        assertEquals(11, p.busiestHourOfDay());
        assertEquals(0, new BigDecimal("2.75").compareTo(p.meanGpusAtBusiestHour()));
        assertEquals(2, p.pods());
    }

    @Test
    void aClippedHourIsAveragedOverItsOwnLengthAndAThirdIsRoundedOnlyAtTheEnd() {
        // [10:40, 11:00) is 20 minutes: 1 GPU for 10 of them is a mean of 0.5. 1/3 GPU all hour prints 0.333333.
        List<PendingHours.Hour> hours = PendingHours.over(at("10:40:00"), at("12:00:00"), ZoneOffset.UTC);
        Demand.PendingPeak p = PendingHours.peak(hours, List.of(
                new PendingHours.Wait(BigDecimal.ONE, at("10:50:00"), at("11:00:00")),
                new PendingHours.Wait(new BigDecimal("0.333333333333"), at("11:00:00"), at("12:00:00"))), 2);
        assertEquals(0, new BigDecimal("0.5").compareTo(p.peakGpus()));
        assertEquals(at("10:40:00"), p.peakHour());
        assertEquals(0, new BigDecimal("0.333333").compareTo(
                PendingHours.peak(hours.subList(1, 2), List.of(new PendingHours.Wait(new BigDecimal("0.333333333333"),
                        at("11:00:00"), at("12:00:00"))), 1).peakGpus()));
    }

    @Test
    void theBusiestHourOfDayAveragesItsHoursAcrossDays() {
        // two days: 09h has 4 then 0 (mean 2), 10h has 3 and 3 (mean 3): the peak hour is 09h, the busiest hour 10h
        Instant d1 = Instant.parse("2025-06-02T00:00:00Z");
        List<PendingHours.Hour> hours = PendingHours.over(d1, d1.plusSeconds(2 * 86400), ZoneOffset.UTC);
        Demand.PendingPeak p = PendingHours.peak(hours, List.of(
                new PendingHours.Wait(new BigDecimal("4"), at("09:00:00"), at("10:00:00")),
                new PendingHours.Wait(new BigDecimal("3"), at("10:00:00"), at("11:00:00")),
                new PendingHours.Wait(new BigDecimal("3"), at("10:00:00").plusSeconds(86400), at("11:00:00").plusSeconds(86400))), 3);
        assertEquals(0, new BigDecimal("4").compareTo(p.peakGpus()));
        assertEquals(at("09:00:00"), p.peakHour());
        assertEquals(10, p.busiestHourOfDay());
        assertEquals(0, new BigDecimal("3").compareTo(p.meanGpusAtBusiestHour()));
    }

    @Test
    void nothingWaitingHasNoPeakHour() {
        Demand.PendingPeak p = PendingHours.peak(PendingHours.over(at("00:00:00"), at("03:00:00"), ZoneOffset.UTC), List.of(), 0);
        assertEquals(0, BigDecimal.ZERO.compareTo(p.peakGpus()));
        assertNull(p.peakHour());
        assertNull(p.busiestHourOfDay());
        // a wait before the window and one ending where it starts leave it empty too
        Demand.PendingPeak outside = PendingHours.peak(PendingHours.over(at("10:00:00"), at("11:00:00"), ZoneOffset.UTC),
                List.of(new PendingHours.Wait(BigDecimal.TEN, at("08:00:00"), at("10:00:00")),
                        new PendingHours.Wait(BigDecimal.TEN, at("10:30:00"), at("10:30:00"))), 2);
        assertNull(outside.peakHour());
    }

    @Test
    void theWorstDaysP95AndTheMedianOfTheDays() {
        // 1 Jun: 20 waits of 1..20 s: p95 rank 19 -> 19 s. 2 Jun: 5 s. 3 Jun: 30 s and 60 s -> 60 s.
        // peak 60 s on the 3rd; the median of [19, 5, 60] sorted [5, 19, 60] at rank 2 is 19 s.
        TreeMap<String, List<Long>> days = new TreeMap<>();
        days.put("2025-06-01", java.util.stream.LongStream.rangeClosed(1, 20).map(s -> s * 1000).boxed().toList());
        days.put("2025-06-02", List.of(5000L));
        days.put("2025-06-03", List.of(60000L, 30000L));
        Demand.QueueWaitPeak q = QueueWaitPeaks.of(days);
        assertEquals(0, new BigDecimal("60").compareTo(q.peak()));
        assertEquals("2025-06-03", q.peakDay());
        assertEquals(0, new BigDecimal("19").compareTo(q.median()));
        assertEquals(3, q.days());
        assertEquals(23, q.waits());
        assertNull(QueueWaitPeaks.of(new TreeMap<>()));
        // milliseconds survive: 1.5 s
        assertEquals(0, new BigDecimal("1.5").compareTo(QueueWaitPeaks.of(new TreeMap<>(java.util.Map.of("2025-06-01",
                List.of(1500L)))).peak()));
    }
}
