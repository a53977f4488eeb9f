package io.gpumeter.slo.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.gpumeter.slo.domain.AttainmentBreakdown;
import io.gpumeter.slo.domain.TenantCoverage;
import io.gpumeter.slo.service.BreakdownService;

import java.time.Instant;
import java.util.List;

/**
 * Where an SLO's minutes in {@code [from, to)} ran: per card, per node and per queue, the selected pods' minutes,
 * those in the SLO's bad service-minutes, and the pods' own events there.
 */
public record BreakdownView(String name, SloView.Selector selector, String sli, Instant from, Instant to,
                            long minutes, long badMinutes, long events, long badEvents, long podMinutes,
                            long badPodMinutes, long unplacedPodMinutes, long unplacedBadPodMinutes,
                            List<AttainmentBreakdown.GpuShare> byGpu, List<AttainmentBreakdown.NodeShare> byNode,
                            List<AttainmentBreakdown.QueueShare> byQueue,
                            @JsonInclude(JsonInclude.Include.NON_NULL) TenantCoverage selection) {

    static BreakdownView of(BreakdownService.Breakdown b) {
        AttainmentBreakdown.Result r = b.result();
        return new BreakdownView(b.definition().name(), SloView.Selector.of(b.definition().selector()),
                b.definition().sli().name(), b.window().start(), b.window().end(), r.minutes(), r.badMinutes(),
                r.events(), r.badEvents(), r.podMinutes(), r.badPodMinutes(), r.unplacedPodMinutes(),
                r.unplacedBadPodMinutes(), r.byGpu(), r.byNode(), r.byQueue(), b.selection());
    }
}
