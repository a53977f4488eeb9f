package io.gpumeter.alert.rest;

import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.repository.EpisodeRepository;
import io.gpumeter.alert.repository.StoredRuleStatus;
import io.gpumeter.alert.service.EvaluationService;
import io.gpumeter.alert.service.RuleBook;
import io.gpumeter.common.problem.ApiProblem;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The semantic rules and their state after the newest evaluation: OK, FIRING, INACTIVE (its source is not
 * available) or HELD (a source failed; its alerts stay as they were). POST runs an evaluation now.
 */
@Path("/api/v1/rules")
@Produces(MediaType.APPLICATION_JSON)
public class RuleResource {

    /** One rule as reported; status NOT_EVALUATED before the first evaluation. */
    public record RuleView(String alertname, String severity, String condition, String status, String note, int firing,
                           Instant evaluatedAt) {
    }

    private final RuleBook rules;
    private final EpisodeRepository episodes;
    private final EvaluationService evaluation;

    private final Clock clock;

    public RuleResource(RuleBook rules, EpisodeRepository episodes, EvaluationService evaluation, Clock clock) {
        this.clock = clock;
        this.rules = rules;
        this.episodes = episodes;
        this.evaluation = evaluation;
    }

    @GET
    public Uni<List<RuleView>> list() {
        return episodes.statuses().map(stored -> {
            Map<String, StoredRuleStatus> by = stored.stream()
                    .collect(Collectors.toMap(StoredRuleStatus::alertname, Function.identity()));
            return rules.rules().stream().map(r -> {
                StoredRuleStatus s = by.get(r.alertname());
                return s == null ? new RuleView(r.alertname(), r.severity().label(), r.condition(), "NOT_EVALUATED", null, 0, null)
                        : new RuleView(r.alertname(), r.severity().label(), r.condition(), s.status(), s.note(), s.firing(),
                        s.evaluatedAt());
            }).toList();
        });
    }

    @POST
    @Path("/evaluations")
    public Uni<List<RuleView>> evaluate() {
        Instant now = clock.instant();
        return evaluation.evaluate().map(ran -> {
            List<RuleResult> results = ran.orElseThrow(() -> new ApiProblem(409, "Conflict", null,
                    "another replica is evaluating the rules right now; try again in a moment"));
            return IntStream.range(0, results.size()).mapToObj(i -> {
                var rule = rules.rules().get(i);
                RuleResult r = results.get(i);
                return new RuleView(rule.alertname(), rule.severity().label(), rule.condition(), r.status().name(), r.note(),
                        r.findings().size(), now);
            }).toList();
        });
    }
}
