package io.gpumeter.ledger.demand.domain;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/** GPUs asked for by waiting pods, as a time-weighted mean per local hour, and the hours where it peaks. */
public final class PendingHours {

    /** One hour of the window that has happened: [start, end), clipped to the window and now. */
    public record Hour(Instant start, Instant end, int hourOfDay) {
    }

    /** A pod's wait: the card-equivalents it asks for, over [from, to). */
    public record Wait(BigDecimal gpus, Instant from, Instant to) {
    }

    private static final MathContext EXACT_ENOUGH = MathContext.DECIMAL128;
    private static final long HOUR_MS = Duration.ofHours(1).toMillis();

    private PendingHours() {
    }

    /** The zone's local hours overlapping [from, until), clipped to it; none when until is not after from. */
    public static List<Hour> over(Instant from, Instant until, ZoneId zone) {
        List<Hour> out = new ArrayList<>();
        for (Instant h = from.atZone(zone).truncatedTo(ChronoUnit.HOURS).toInstant(); h.isBefore(until); h = h.plusMillis(HOUR_MS)) {
            Instant start = h.isBefore(from) ? from : h;
            Instant end = h.plusMillis(HOUR_MS).isAfter(until) ? until : h.plusMillis(HOUR_MS);
            if (start.isBefore(end)) {
                out.add(new Hour(start, end, h.atZone(zone).getHour()));
            }
        }
        return out;
    }

    /**
     * Each hour's mean is the waits' GPUs times the part of the hour each waited, over the hour's length; the peak
     * is the highest hour (the first of equals), the busiest hour of day the one whose hours' means average highest
     * (the earliest of equals). Figures are rounded to 6 decimals only here.
     */
    public static Demand.PendingPeak peak(List<Hour> hours, List<Wait> waits, int pods) {
        BigDecimal[] weighted = new BigDecimal[hours.size()];
        java.util.Arrays.fill(weighted, BigDecimal.ZERO);
        Instant first = hours.isEmpty() ? null : hours.get(0).start();
        for (Wait w : waits) {
            if (first == null || !w.to().isAfter(w.from())) {
                continue;
            }
            int i = Math.max(0, index(hours, first, w.from()));
            for (; i < hours.size() && hours.get(i).start().isBefore(w.to()); i++) {
                Hour h = hours.get(i);
                long overlap = Duration.between(max(h.start(), w.from()), min(h.end(), w.to())).toMillis();
                if (overlap > 0) {
                    weighted[i] = weighted[i].add(w.gpus().multiply(BigDecimal.valueOf(overlap)));
                }
            }
        }
        BigDecimal peak = BigDecimal.ZERO;
        Instant peakHour = null;
        BigDecimal[] byHourOfDay = new BigDecimal[24];
        int[] counted = new int[24];
        for (int i = 0; i < hours.size(); i++) {
            Hour h = hours.get(i);
            BigDecimal mean = weighted[i].divide(BigDecimal.valueOf(Duration.between(h.start(), h.end()).toMillis()), EXACT_ENOUGH);
            if (mean.compareTo(peak) > 0) {
                peak = mean;
                peakHour = h.start();
            }
            byHourOfDay[h.hourOfDay()] = byHourOfDay[h.hourOfDay()] == null ? mean : byHourOfDay[h.hourOfDay()].add(mean);
            counted[h.hourOfDay()]++;
        }
        Integer busiest = null;
        BigDecimal busiestMean = BigDecimal.ZERO;
        for (int hour = 0; hour < 24 && peakHour != null; hour++) {
            if (counted[hour] > 0) {
                BigDecimal mean = byHourOfDay[hour].divide(BigDecimal.valueOf(counted[hour]), EXACT_ENOUGH);
                if (busiest == null || mean.compareTo(busiestMean) > 0) {
                    busiest = hour;
                    busiestMean = mean;
                }
            }
        }
        return new Demand.PendingPeak(rounded(peak), peakHour, busiest, rounded(busiestMean), pods);
    }

    /** The index of the hour holding {@code at}: hours are an hour apart from the first one's seam on. */
    private static int index(List<Hour> hours, Instant first, Instant at) {
        if (!at.isAfter(first)) {
            return 0;
        }
        // the first hour may be clipped: count from its seam, the start of the local hour holding it
        Instant seam = hours.size() > 1 ? hours.get(1).start().minusMillis(HOUR_MS) : first;
        return (int) Math.min(hours.size() - 1, Math.max(0, Duration.between(seam, at).toMillis() / HOUR_MS));
    }

    private static BigDecimal rounded(BigDecimal v) {
        return ShapeBook.plain(v.setScale(6, RoundingMode.HALF_EVEN));
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
