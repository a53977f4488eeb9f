package io.gpumeter.slo.acceptance;

import io.gpumeter.common.domain.TimeWindow;

import java.util.ArrayList;
import java.util.List;

/**
 * JITTER_EVENT_RATE: the jitter events of the cell's services that started in the window, per hour of it. Events are
 * what slo-service detected and stored (a run of minutes whose p99 exceeded the factor times a latency SLO's
 * threshold); a service no latency SLO selects is never judged, so its rate is missing rather than zero.
 */
final class JitterRate {

    private JitterRate() {
    }

    /** Events per hour of the window. */
    static double perHour(int events, TimeWindow window) {
        return events / (window.duration().toMillis() / 3_600_000.0);
    }

    static Figures.Figure figure(CellData cell) {
        JitterEventReads.CellEvents jitter = cell.jitter();
        StringBuilder csv = new StringBuilder("cell,event_id,slo,namespace,service,sli,started_at,ended_at,bad_minutes,"
                + "peak_p99_ms,threshold_ms\n");
        jitter.events().forEach(e -> csv.append(PackCsv.line(cell.cell().name(), e.id(), e.slo(), e.namespace(),
                e.service(), e.sli(), e.start(), e.end(), e.badMinutes(), e.peakP99Ms(), e.thresholdMs())));
        List<Run.Call> calls = new ArrayList<>(jitter.calls());
        Double value = jitter.services().isEmpty() || jitter.watchedBy().isEmpty() ? null
                : perHour(jitter.events().size(), cell.window());
        String missing = jitter.services().isEmpty() ? "the cell's pods reported no requests in the window"
                : "no latency SLO selects the cell's services " + jitter.services()
                + ", so their minutes are not judged for jitter (define one: POST /api/v1/slos)";
        return Figures.from(value, missing, calls, csv.toString());
    }
}
