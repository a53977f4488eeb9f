package io.gpumeter.alert.review;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.common.client.Answers;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.InvalidInput;
import io.gpumeter.common.triage.InputBundle;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.common.triage.TriageRequest;
import io.gpumeter.alert.service.TriageService;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Writes and reads reviews. A review is checked whole before anything is asked; then the ledger must know the
 * incident; then, unless the newest version decided the same, the incident's pod (else its node) is triaged at the
 * incident's start and — for a regression case — the facts that triage read are fetched and redacted, and the
 * version is stored with all of it at once. A service that cannot be asked stores nothing (503).
 */
@ApplicationScoped
public class ReviewService {

    /** Incident ids are the ledger's (24 hex digits today); any id is one URL path segment without escapes. */
    static final java.util.regex.Pattern ID = java.util.regex.Pattern.compile("[A-Za-z0-9._~-]{1,128}");

    private final ReviewLedger ledger;
    private final TriageService triage;
    private final ReviewRepository reviews;
    private final Clock clock;

    public ReviewService(ReviewLedger ledger, TriageService triage, ReviewRepository reviews, Clock clock) {
        this.ledger = ledger;
        this.triage = triage;
        this.reviews = reviews;
        this.clock = clock;
    }

    /** Stores the review as a new version, or answers the newest one when it decided the same. */
    public Uni<ReviewRepository.Written> submit(String incidentId, JsonNode body, String reviewer) {
        String id = id(incidentId);
        ReviewInput decision = ReviewInput.read(body);
        return ledger.incident(id)
                .onFailure().transform(e -> unavailable("the ledger could not be asked for incident " + id, e))
                .chain(found -> {
                    IncidentRef incident = found.orElseThrow(() -> ApiProblem.notFound("id",
                            "the ledger has no incident '" + id + "'"));
                    return reviews.find(id, null).chain(newest -> newest.isPresent()
                            && newest.get().contentHash().equals(decision.contentHash())
                            ? Uni.createFrom().item(new ReviewRepository.Written(newest.get(), false))
                            : freeze(incident, decision, reviewer));
                });
    }

    /** The newest version, or the one asked for; 404 when the incident has no review (or no such version). */
    public Uni<Review> get(String incidentId, Integer version) {
        String id = id(incidentId);
        if (version != null && version < 1) {
            throw new InvalidInput("version", "version counts from 1");
        }
        return reviews.find(id, version).map(found -> found.orElseThrow(() -> ApiProblem.notFound(
                version == null ? "id" : "version", version == null ? "incident '" + id + "' has no review"
                        : "incident '" + id + "' has no review version " + version)));
    }

    private Uni<ReviewRepository.Written> freeze(IncidentRef incident, ReviewInput decision, String reviewer) {
        Optional<TriageRequest> subject = subject(incident);
        if (subject.isEmpty()) {
            return reviews.write(new ReviewRepository.Draft(incident.id(), decision, reviewer, clock.instant(), incident,
                    null, "the incident names neither a pod nor a node to triage", null,
                    decision.wantsInputs() ? "the incident names neither a pod nor a node: no inputs to keep" : null));
        }
        TriageRequest atStart = subject.get();
        // the whole answer with the runbook's fix, as an operator's triage sees it; a subject nobody knows at the start
        // is asked about again where the incident left it (a pod the ledger learnt of only from the version the kubelet
        // wrote when it failed); one nobody knows then either (its pod long gone) is kept as a note, anything else
        // stores nothing
        return triageAt(atStart).chain(first -> {
            Instant later = first.isPresent() ? null : later(incident);
            return later == null ? Uni.createFrom().item(new Asked(atStart, first))
                    : triageAt(at(atStart, later)).map(second -> second.isPresent() ? new Asked(at(atStart, later), second)
                    : new Asked(atStart, first));
        }).chain(asked -> inputs(asked.request(), incident, decision).chain(in -> reviews.write(new ReviewRepository.Draft(
                incident.id(), decision, reviewer, clock.instant(), incident, asked.answer().orElse(null),
                asked.answer().isPresent() ? null : "no service knows " + describe(atStart) + " any more, or none triages it yet",
                in.inputs(), in.note()))));
    }

    /** The question a review asked and the triage it answered (none when no service knew the subject then). */
    private record Asked(TriageRequest request, Optional<Triage> answer) {
    }

    private Uni<Optional<Triage>> triageAt(TriageRequest request) {
        return triage.triage(request, null).map(Optional::of)
                .onFailure(e -> e instanceof ApiProblem p && p.status() == 404).recoverWithItem(Optional.empty())
                .onFailure().transform(e -> e instanceof ApiProblem p
                        ? new ApiProblem(p.status() < 500 ? 502 : p.status(), p.status() < 500 ? "Bad Gateway" : p.title(),
                        null, "the incident's triage could not be computed: " + p.getMessage() + "; nothing was stored")
                        : unavailable("the incident's triage could not be computed", e));
    }

    /** Where the incident left its subject: its recovery, else its end, else now while it is open; null at its start. */
    private Instant later(IncidentRef i) {
        Instant then = i.recoveredAt() != null ? i.recoveredAt() : i.endedAt() != null ? i.endedAt() : clock.instant();
        return i.startedAt() == null || then.isAfter(i.startedAt()) ? then : null;
    }

    private record Inputs(InputBundle inputs, String note) {
    }

    /** The facts the triage read, redacted to the incident's namespace, when a regression case asks for them. */
    private Uni<Inputs> inputs(TriageRequest request, IncidentRef incident, ReviewInput decision) {
        if (!decision.wantsInputs()) {
            return Uni.createFrom().item(new Inputs(null, null));
        }
        Set<String> own = new HashSet<>();
        if (incident.namespace() != null) {
            own.add(incident.namespace());
        }
        return ledger.inputs(request)
                .onFailure().transform(e -> unavailable("the ledger could not be asked for the triage's inputs", e))
                .map(found -> found.map(b -> {
                    InputsRedaction.Redacted r = InputsRedaction.redact(b, own);
                    return new Inputs(r.inputs(), InputsRedaction.note(r));
                }).orElse(new Inputs(null, "the ledger offers no inputs for " + describe(request))));
    }

    /** What a stored review triaged: its subject at the instant of the triage it keeps, else at the incident's start. */
    static Optional<TriageRequest> subject(Review r) {
        return subject(r.incident()).map(q -> r.triage() != null && r.triage().at() != null ? at(q, r.triage().at()) : q);
    }

    private static TriageRequest at(TriageRequest r, Instant at) {
        return new TriageRequest(r.kind(), r.cluster(), r.namespace(), r.name(), at);
    }

    /** What the review triages: the incident's pod at its start, else its node. */
    static Optional<TriageRequest> subject(IncidentRef i) {
        if (i.pod() != null && !i.pod().isBlank() && i.namespace() != null && !i.namespace().isBlank()) {
            return Optional.of(new TriageRequest(Triage.SubjectKind.POD, i.cluster(), i.namespace(), i.pod(), i.startedAt()));
        }
        if (i.node() != null && !i.node().isBlank()) {
            return Optional.of(new TriageRequest(Triage.SubjectKind.NODE, i.cluster(), null, i.node(), i.startedAt()));
        }
        return Optional.empty();
    }

    private static String describe(TriageRequest r) {
        return r.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + " "
                + (r.namespace() == null ? "" : r.namespace() + "/") + r.name();
    }

    static String id(String incidentId) {
        if (incidentId == null || !ID.matcher(incidentId).matches()) {
            throw new InvalidInput("id", "id must be the ledger's incident id: 1-128 letters, digits, '.', '_', '~' or '-'");
        }
        return incidentId;
    }

    private static RuntimeException unavailable(String what, Throwable e) {
        if (e instanceof ApiProblem p && p.status() < 500) {
            return p;
        }
        return ApiProblem.unavailable(what + " (" + Answers.reason(e) + "); nothing was stored, send the review again");
    }
}
