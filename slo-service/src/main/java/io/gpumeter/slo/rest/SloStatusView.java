package io.gpumeter.slo.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.gpumeter.slo.client.Change;
import io.gpumeter.slo.domain.AlertState;
import io.gpumeter.slo.domain.SloStatus;
import io.gpumeter.slo.domain.TenantCoverage;
import io.gpumeter.slo.domain.WindowBurn;
import io.gpumeter.slo.service.ChangesBefore;
import io.gpumeter.slo.service.SloService;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * An SLO's standing over its window ending at {@code end}: attainment (and whether it meets the target), error budget
 * and burn-rate alerts; for a
 * tenant selector, how the pods read were attributed ({@code selection}); and while a burn-rate alert fires, outside
 * a tenant's reads, {@code changesBefore}: the changes of the nodes its pods ran on in the look-back before {@code to}
 * and of their clusters, newest first, at most 10 — absent, with {@code changesBeforeNote} saying why, when the ledger
 * could not be read (the note also says when its pods were on no node the ledger knows).
 */
public record SloStatusView(String name, String service,
                            @JsonInclude(JsonInclude.Include.NON_NULL) String tenant,
                            @JsonInclude(JsonInclude.Include.NON_NULL) String namespace,
                            String sli, BigDecimal target, String window,
                            Instant from, Instant to, String state, BigDecimal attainment, Boolean meetsTarget, long goodEvents,
                            long totalEvents, ErrorBudget errorBudget, List<Alert> alerts,
                            @JsonInclude(JsonInclude.Include.NON_NULL) TenantCoverage selection,
                            @JsonInclude(JsonInclude.Include.NON_NULL) List<Change> changesBefore,
                            @JsonInclude(JsonInclude.Include.NON_NULL) String changesBeforeNote) {

    /**
     * @param allowedBad bad events the window may hold: (1 - target) x total
     * @param remaining  1 - bad / allowedBad; 1 without events, negative once overspent
     */
    public record ErrorBudget(BigDecimal allowedBad, long bad, BigDecimal remaining) {
    }

    /** A trailing window's events and burn rate (null without events). */
    public record Burn(String window, long good, long total, BigDecimal burnRate) {
        static Burn of(WindowBurn w) {
            return new Burn(w.window().toString(), w.good(), w.total(), w.burnRate());
        }
    }

    /** One multi-window alert: it fires when both windows burn faster than the factor. */
    public record Alert(String severity, BigDecimal factor, BigDecimal budgetConsumed, Burn longWindow,
                        Burn shortWindow, boolean firing) {
        static Alert of(AlertState a) {
            return new Alert(a.alert().severity().name(), a.alert().factor(), a.budgetConsumed(),
                    Burn.of(a.longWindow()), Burn.of(a.shortWindow()), a.firing());
        }
    }

    static SloStatusView of(SloService.Evaluated e) {
        SloStatus s = e.status();
        return new SloStatusView(e.definition().name(), e.definition().service(), e.definition().tenant(),
                e.definition().selector().namespace(), e.definition().sli().name(),
                e.definition().target(), e.definition().windowText(), s.window().start(), s.window().end(),
                s.state().name(), s.attainment(), meets(s.attainment(), e.definition().target()), s.good(), s.total(),
                new ErrorBudget(s.allowedBad(), s.bad(), s.budgetRemaining()),
                s.alerts().stream().map(Alert::of).toList(), e.selection(), null, null);
    }

    /** The same status with the changes before it (none read: as it is). */
    SloStatusView with(ChangesBefore.Found found) {
        return found == null ? this : new SloStatusView(name, service, tenant, namespace, sli, target, window, from, to,
                state, attainment, meetsTarget, goodEvents, totalEvents, errorBudget, alerts, selection, found.changes(),
                found.note());
    }

    /** Whether the window's attainment is at or above the target; null without events, when there is none to judge. */
    static Boolean meets(BigDecimal attainment, BigDecimal target) {
        return attainment == null || target == null ? null : attainment.compareTo(target) >= 0;
    }
}
