package io.gpumeter.alert.review;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gpumeter.alert.config.AlertConfig;
import io.gpumeter.common.client.Answers;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.InvalidInput;
import io.gpumeter.common.problem.Params;
import io.gpumeter.common.triage.TriageRequest;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;

import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;

/** Each prevention item as what the team applies; see the export classes for the formats. */
@ApplicationScoped
public class ReviewExports {

    static final String YAML = "application/yaml";
    static final String ZIP = "application/zip";
    /** An acceptance plan's window when none is asked for: the day before the export. */
    static final Duration PLAN_WINDOW = Duration.ofHours(24);

    private static final KubernetesSerialization KUBERNETES = new KubernetesSerialization();

    private final ReviewLedger ledger;
    private final ObjectMapper json;
    private final Clock clock;
    private final String externalUrl;

    public ReviewExports(ReviewLedger ledger, ObjectMapper json, Clock clock, AlertConfig config) {
        this.ledger = ledger;
        this.json = json;
        this.clock = clock;
        this.externalUrl = config.externalUrl();
    }

    /** Item {@code n} (from 1) of the review; {@code from}/{@code to} bound an acceptance plan's window. */
    public Uni<Response> export(Review review, int n, String from, String to) {
        if (n < 1 || n > review.decision().prevention().size()) {
            throw ApiProblem.notFound("n", "the review has " + review.decision().prevention().size()
                    + " prevention items (numbered from 1), not " + n);
        }
        String file = ExportNames.object(review.incidentId(), n);
        Prevention item = review.decision().prevention().get(n - 1);
        if (item instanceof AlertThreshold a) {
            return Uni.createFrom().item(text(KUBERNETES.asYaml(PrometheusRuleExport.rule(review, n, a, externalUrl)),
                    YAML, file + ".yaml"));
        }
        if (item instanceof AdmissionPolicy p) {
            return Uni.createFrom().item(text(AdmissionPolicyExport.objects(review, n, p).stream()
                    .map(ReviewExports::yaml).collect(Collectors.joining()), YAML, file + ".yaml"));
        }
        if (item instanceof AcceptanceItem a) {
            return Uni.createFrom().item(acceptance(review, a, from, to, file));
        }
        return regression(review, n, (RegressionCase) item, file);
    }

    private Response acceptance(Review review, AcceptanceItem item, String from, String to, String file) {
        Instant end = Params.instantOr("to", to, clock.instant().truncatedTo(ChronoUnit.MINUTES));
        Instant start = Params.instantOr("from", from, end.minus(PLAN_WINDOW));
        Params.window(start, end);
        try {
            return Response.ok(json.writerWithDefaultPrettyPrinter().writeValueAsString(
                            AcceptancePlanExport.plan(review, item, start, end)), "application/json")
                    .header("Content-Disposition", "inline; filename=\"" + file + ".json\"").build();
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The inputs kept with the review; for a review written before the ledger offered them, the ledger's now. */
    private Uni<Response> regression(Review review, int n, RegressionCase item, String file) {
        TriageRequest request = ReviewService.subject(review).orElseThrow(() -> ApiProblem.notFound("n",
                "the incident names neither a pod nor a node: there is no triage to replay"));
        if (review.inputs() != null) {
            return Uni.createFrom().item(zip(RegressionCaseExport.zip(review, n, item, request, review.inputs(), true,
                    review.inputsNote(), json), file));
        }
        Set<String> own = new HashSet<>();
        if (review.incident().namespace() != null) {
            own.add(review.incident().namespace());
        }
        return ledger.inputs(request)
                .onFailure().transform(e -> ApiProblem.unavailable("the ledger could not be asked for the triage's inputs ("
                        + Answers.reason(e) + ")"))
                .map(found -> {
                    var batch = found.orElseThrow(() -> ApiProblem.notFound("n", "the ledger offers no inputs of this "
                            + "incident's triage (" + (review.inputsNote() == null ? "none were kept" : review.inputsNote()) + ")"));
                    InputsRedaction.Redacted r = InputsRedaction.redact(batch, own);
                    return zip(RegressionCaseExport.zip(review, n, item, request, r.inputs(), false,
                            InputsRedaction.note(r), json), file);
                });
    }

    private static String yaml(HasMetadata object) {
        String y = KUBERNETES.asYaml(object);
        return y.startsWith("---") ? y : "---\n" + y;
    }

    private static Response text(String body, String type, String filename) {
        return Response.ok(body, type + ";charset=UTF-8")
                .header("Content-Disposition", "inline; filename=\"" + filename + "\"").build();
    }

    private static Response zip(byte[] bytes, String file) {
        return Response.ok(bytes, ZIP).header("Content-Disposition", "attachment; filename=\"" + file + ".zip\"").build();
    }

    /** The export's item number from the path. */
    static int number(String n) {
        try {
            return Integer.parseInt(n);
        } catch (NumberFormatException e) {
            throw new InvalidInput("n", "n must be an item's number, from 1, got '" + n + "'");
        }
    }
}
