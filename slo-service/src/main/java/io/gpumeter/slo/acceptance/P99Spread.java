package io.gpumeter.slo.acceptance;

import io.gpumeter.slo.domain.Sli;

import java.util.List;

/**
 * P99_SPREAD: how far the cell's p99 moved across the window — the largest per-minute p99 of the SLI less the smallest,
 * over the minutes in which the cell's pods had requests of it. One minute has no spread, so it takes two.
 */
final class P99Spread {

    private P99Spread() {
    }

    /** Largest less smallest per-minute p99 in milliseconds; null with fewer than two minutes that have one. */
    static Double of(List<CellData.MinutePoint> curve) {
        List<Double> p99s = curve.stream().filter(p -> p.latency().count() > 0).map(p -> p.latency().p99Ms())
                .filter(v -> v != null).toList();
        if (p99s.size() < 2) {
            return null;
        }
        return p99s.stream().max(Double::compare).orElseThrow() - p99s.stream().min(Double::compare).orElseThrow();
    }

    static Figures.Figure figure(CellData cell, Sli sli) {
        CellData.SliData data = cell.latency().get(sli);
        return Figures.from(data == null ? null : of(data.curve()), "fewer than two minutes of " + sli
                + " latency recorded for the cell's pods in the window", cell.calls(), Figures.latencyCsv(cell, sli));
    }
}
