package io.gpumeter.slo.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.gpumeter.slo.client.Change;
import io.gpumeter.slo.domain.SuspectRanking;
import io.gpumeter.slo.repository.JitterEventRepository.StoredEvent;
import io.gpumeter.slo.service.ChangesBefore;
import io.gpumeter.slo.service.EngineGaugeService;
import io.gpumeter.slo.service.JitterEvidence;
import io.gpumeter.slo.service.JitterService;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * A jitter event with its evidence: the span {@code [start, end)} of consecutive minutes whose p99 was over
 * {@code limitMs} = factor x thresholdMs, the service's pods and GPUs, the same-card neighbours with their curves,
 * the service's p50/p95/p99 curve and KV-cache usage, the host's and the cards' pressures on the service with their
 * curves on the same axis ({@code pressures}) and those that could not be measured ({@code unmeasured}; both empty for
 * an event attributed before they were read), the ranked suspects — neighbours and pressures — with the parts of their
 * scores, and what changed before it ({@code changesBefore}, as in {@link JitterEventSummary}).
 */
public record JitterEventView(long id, String slo, String service, String namespace, String sli,
                              Instant start, Instant end,
                              int badMinutes, double peakP99Ms, BigDecimal thresholdMs, BigDecimal factor,
                              BigDecimal limitMs, Instant curveFrom, Instant curveTo,
                              List<JitterEvidence.PodGpus> pods, List<JitterEvidence.Neighbour> neighbours,
                              List<JitterEvidence.LatencyPoint> latency,
                              List<EngineGaugeService.KvPoint> kvCacheUsage,
                              List<JitterEvidence.Pressure> pressures, List<JitterEvidence.Unmeasured> unmeasured,
                              List<SuspectRanking.Suspect> suspects, List<String> gaps, Instant detectedAt,
                              Instant updatedAt,
                              @JsonInclude(JsonInclude.Include.NON_NULL) List<Change> changesBefore,
                              @JsonInclude(JsonInclude.Include.NON_NULL) String changesBeforeNote) {

    static JitterEventView of(JitterService.Event event, ChangesBefore.Found changes) {
        StoredEvent e = event.event();
        JitterEvidence x = event.evidence();
        // evidence gathered before KV-cache curves were kept has none
        return new JitterEventView(e.id(), e.slo(), e.service(), e.namespace(), e.sli().name(),
                e.start(), e.end(), e.badMinutes(),
                e.peakP99Ms(), e.thresholdMs(), e.factor(), JitterEventSummary.limit(e), x.curveFrom(), x.curveTo(),
                x.pods(), x.neighbours(), x.latency(), x.kvCacheUsage() == null ? List.of() : x.kvCacheUsage(),
                x.pressures() == null ? List.of() : x.pressures(), x.unmeasured() == null ? List.of() : x.unmeasured(),
                x.suspects(), x.gaps(), e.detectedAt(), e.updatedAt(), changes.changes(), changes.note());
    }
}
