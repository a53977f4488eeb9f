package io.gpumeter.slo.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.gpumeter.slo.domain.Objective;
import io.gpumeter.slo.domain.SloDefinition;
import io.gpumeter.slo.domain.SloSelector;
import io.gpumeter.slo.service.SloService;

import java.math.BigDecimal;
import java.time.Instant;

/** An SLO as the API shows it: the shape it was sent in, plus when it was stored. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SloView(String name, Selector selector, String sli, ObjectiveView objective, BigDecimal target,
                      String window, Instant createdAt, Instant updatedAt) {

    /** Whose requests count: a service's, or a tenant's (one service and/or namespace of it if named). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Selector(String service, String tenant, String namespace) {

        static Selector of(SloSelector s) {
            return new Selector(s.service(), s.tenant(), s.namespace());
        }
    }

    /** The latency objective. */
    public record ObjectiveView(BigDecimal percentile, BigDecimal thresholdMs, String per) {
    }

    static SloView of(SloService.Stored stored) {
        SloDefinition d = stored.definition();
        Objective o = d.objective();
        return new SloView(d.name(), Selector.of(d.selector()), d.sli().name(),
                o == null ? null : new ObjectiveView(o.percentile(), o.thresholdMs(), o.per().name()),
                d.target(), d.windowText(), stored.createdAt(), stored.updatedAt());
    }
}
