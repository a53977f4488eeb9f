package io.gpumeter.slo.service;

import io.gpumeter.slo.domain.LatencyHistograms;
import io.gpumeter.slo.domain.MinuteEvents;
import io.gpumeter.slo.domain.SliEvents;
import io.gpumeter.slo.domain.SloDefinition;
import io.gpumeter.slo.domain.TimeWindow;
import io.gpumeter.slo.repository.LatencyRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.HdrHistogram.Histogram;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reads an SLO's good and total events per minute from the stored latency minutes. */
@ApplicationScoped
public class SloEvents {

    private final LatencyRepository latency;

    public SloEvents(LatencyRepository latency) {
        this.latency = latency;
    }

    /** The SLO's events for each minute starting in {@code [from, to)} that saw requests, in order. */
    public Uni<List<MinuteEvents>> perMinute(SloDefinition slo, Instant from, Instant to) {
        TimeWindow window = new TimeWindow(from, to);
        if (!slo.sli().isLatency()) {
            return latency.requests(slo.service(), window).map(rows -> rows.stream()
                    .map(r -> SliEvents.availability(r.minute(), r.requests(), r.failed())).toList());
        }
        return latency.histograms(slo.service(), slo.sli(), window).map(rows -> {
            Map<Instant, Histogram> byMinute = new TreeMap<>();
            for (LatencyRepository.StoredHistogram h : rows) {
                LatencyHistograms.mergeInto(byMinute.computeIfAbsent(h.minute(), m -> LatencyHistograms.empty()),
                        h.histogram());
            }
            List<MinuteEvents> out = new ArrayList<>(byMinute.size());
            byMinute.forEach((minute, h) -> out.add(SliEvents.latency(slo.objective(), minute, h)));
            return out;
        });
    }
}
