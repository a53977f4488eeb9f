package io.gpumeter.alert.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.InvalidInput;
import io.gpumeter.common.problem.Params;
import io.gpumeter.common.triage.Triage;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Post-incident reviews (ADR 19): an operator's decision about one of the ledger's incidents, the page it makes, its
 * prevention items as what the team applies, and the incidents still waiting for one.
 */
@Path("/api/v1/failures/incidents")
public class ReviewResource {

    static final String MARKDOWN = "text/markdown";
    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h|d|w)");

    private final ReviewService reviews;
    private final ReviewExports exports;
    private final UnreviewedIncidents unreviewed;
    private final CurrentIdentityAssociation identities;
    private final Clock clock;

    public ReviewResource(ReviewService reviews, ReviewExports exports, UnreviewedIncidents unreviewed,
                          CurrentIdentityAssociation identities, Clock clock) {
        this.reviews = reviews;
        this.exports = exports;
        this.unreviewed = unreviewed;
        this.identities = identities;
        this.clock = clock;
    }

    /** A review as served: the decision, its items with their exports, and what was frozen with it. */
    // answered inside a Response, so the native build cannot see it from the method's signature
    @RegisterForReflection
    public record ReviewView(String incidentId, int version, int versions, String reviewer, Instant reviewedAt,
                             String rootCauseClass, String cause, String summary, List<JsonNode> prevention,
                             IncidentRef incident, Triage triage, String triageNote, Inputs inputs, String page) {

        /** The inputs a regression case keeps: how many facts, and what the redaction did (or why there are none). */
        @RegisterForReflection
        public record Inputs(Integer facts, String note) {
        }

        static ReviewView of(Review r) {
            List<JsonNode> items = new ArrayList<>();
            List<Prevention> prevention = r.decision().prevention();
            for (int n = 1; n <= prevention.size(); n++) {
                ObjectNode item = prevention.get(n - 1).json();
                if (prevention.get(n - 1) instanceof AlertThreshold a) {
                    item.put("expr", a.expr()); // what the fields make, shown beside them
                }
                item.put("n", n).put("export", ReviewPaths.item(r.incidentId(), n, r.version()));
                items.add(item);
            }
            Inputs inputs = r.inputs() == null && r.inputsNote() == null ? null
                    : new Inputs(r.inputs() == null ? null : r.inputs().size(), r.inputsNote());
            return new ReviewView(r.incidentId(), r.version(), r.versions(), r.reviewer(), r.reviewedAt(),
                    r.decision().rootCauseClass(), r.decision().cause(), r.decision().summary(), items, r.incident(),
                    r.triage(), r.triageNote(), inputs, ReviewPaths.review(r.incidentId()) + "?format=html");
        }
    }

    /**
     * The ledger's incidents that started at least {@code olderThan} ago (default gpumeter.alert.review.unreviewed-after),
     * within the failure look-back or still open, without a review ({@code reviewed=false}) or with one, oldest first.
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<List<IncidentRef>> list(@QueryParam("reviewed") String reviewed, @QueryParam("olderThan") String olderThan) {
        if (Params.optional(reviewed) == null) {
            throw new InvalidInput("reviewed", "reviewed=false lists the incidents waiting for a review (reviewed=true "
                    + "those with one); the incidents themselves are the ledger's GET /api/v1/failures/incidents");
        }
        boolean done = Params.flag("reviewed", reviewed);
        Duration age = olderThan == null || olderThan.isBlank() ? unreviewed.olderThanByDefault() : duration(olderThan);
        return unreviewed.list(done, age, clock.instant()).map(found -> found.orElseThrow(() ->
                ApiProblem.unavailable("the ledger offers no incidents read (GET /api/v1/failures/incidents)")));
    }

    /**
     * Records the review: 201 with the new version, or 200 with the newest one when it decided the same (a resend).
     */
    @POST
    @Path("/{id}/review")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Response> review(@PathParam("id") String id, JsonNode body) {
        return identities.getDeferredIdentity()
                .map(identity -> identity == null || identity.isAnonymous() ? "anonymous" : identity.getPrincipal().getName())
                .chain(reviewer -> reviews.submit(id, body, reviewer))
                .map(written -> {
                    ReviewView view = ReviewView.of(written.review());
                    return written.created()
                            ? Response.created(URI.create(ReviewPaths.review(view.incidentId()))).entity(view).build()
                            : Response.ok(view).build();
                });
    }

    /** The review as JSON, or as the post-incident page with {@code format=markdown|html} (or such an Accept). */
    @GET
    @Path("/{id}/review")
    @Produces({MediaType.APPLICATION_JSON, MARKDOWN, MediaType.TEXT_HTML})
    public Uni<Response> get(@PathParam("id") String id, @QueryParam("version") String version,
                             @QueryParam("format") String format, @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        String as = format(format, accept);
        return reviews.get(id, version(version)).map(r -> switch (as) {
            case "markdown" -> Response.ok(ReviewPage.markdown(r), MARKDOWN + ";charset=UTF-8").build();
            case "html" -> Response.ok(ReviewPage.html(r), MediaType.TEXT_HTML + ";charset=UTF-8")
                    // the page runs nothing and loads nothing; a text that slipped through could not either
                    .header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'").build();
            default -> Response.ok(ReviewView.of(r), MediaType.APPLICATION_JSON).build();
        });
    }

    /**
     * Prevention item {@code n} (from 1) as what the team applies: an ALERT_THRESHOLD a PrometheusRule and an
     * ADMISSION_POLICY Kubernetes objects (YAML), an ACCEPTANCE_ITEM slo-service's acceptance plan over
     * [{@code from}, {@code to}) (JSON; default the day before), a REGRESSION_CASE a zip to replay.
     */
    @GET
    @Path("/{id}/review/items/{n}")
    @Produces({ReviewExports.YAML, MediaType.APPLICATION_JSON, ReviewExports.ZIP})
    public Uni<Response> item(@PathParam("id") String id, @PathParam("n") String n, @QueryParam("version") String version,
                              @QueryParam("from") String from, @QueryParam("to") String to) {
        int number = ReviewExports.number(n);
        return reviews.get(id, version(version)).chain(r -> exports.export(r, number, from, to));
    }

    private static Integer version(String version) {
        if (Params.optional(version) == null) {
            return null;
        }
        try {
            return Integer.parseInt(version.strip());
        } catch (NumberFormatException e) {
            throw new InvalidInput("version", "version must be a review version's number, from 1, got '" + version + "'");
        }
    }

    private static String format(String format, String accept) {
        if (Params.optional(format) != null) {
            return switch (format.strip().toLowerCase(Locale.ROOT)) {
                case "json" -> "json";
                case "markdown", "md" -> "markdown";
                case "html" -> "html";
                default -> throw new InvalidInput("format", "format must be json, markdown or html, got '" + format + "'");
            };
        }
        String a = accept == null ? "" : accept.toLowerCase(Locale.ROOT);
        return a.contains("application/json") ? "json" : a.contains("text/html") ? "html" : a.contains(MARKDOWN) ? "markdown" : "json";
    }

    /** An ISO-8601 duration (PT24H, P2D) or a short one (24h, 90m, 2d, 1w). */
    static Duration duration(String text) {
        String v = text.strip();
        try {
            Duration d;
            Matcher m = SHORT_DURATION.matcher(v);
            if (m.matches()) {
                long amount = Long.parseLong(m.group(1));
                d = switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(amount);
                    case "s" -> Duration.ofSeconds(amount);
                    case "m" -> Duration.ofMinutes(amount);
                    case "h" -> Duration.ofHours(amount);
                    case "d" -> Duration.ofDays(amount);
                    default -> Duration.ofDays(7 * amount);
                };
            } else {
                d = Duration.parse(v.toUpperCase(Locale.ROOT));
            }
            if (d.isNegative()) {
                throw new InvalidInput("olderThan", "olderThan must not be negative");
            }
            return d;
        } catch (DateTimeParseException e) {
            throw new InvalidInput("olderThan", "olderThan must be a duration such as 24h, 2d or PT24H, got '" + text + "'");
        }
    }
}
