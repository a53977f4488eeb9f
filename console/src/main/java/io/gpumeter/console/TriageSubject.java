package io.gpumeter.console;

import io.quarkus.qute.TemplateData;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a triage is asked about, from the address: the API's own parameters ({@code namespace=&pod=|workload=|
 * podGroup=|node=|service=&cluster=&at=}), so that a triage is a link, or the page's form ({@code kind=&name=}).
 * Which subject is named and whether it needs a namespace is alert-service's to judge; the console only reads the
 * instant, since a form's minute ({@code 2026-11-30T12:00}) is no RFC 3339 instant.
 *
 * @param kind one of {@link #KINDS}, as the API names its parameter; null when nothing was asked
 * @param at   null for now
 */
@TemplateData
public record TriageSubject(String kind, String namespace, String name, String cluster, Instant at) {

    /** The API's parameter per kind of subject, in the order the form offers them. */
    public static final List<String> KINDS = List.of("pod", "workload", "podGroup", "node", "service");

    /** The subject of the address; empty when the address names none (the page then shows the form alone). */
    static Optional<TriageSubject> read(Params params, Page page) {
        List<String> named = new ArrayList<>();
        String kind = null;
        String name = null;
        for (String k : KINDS) {
            String value = blankToNull(params.of(k));
            if (value != null) {
                named.add(k);
                kind = k;
                name = value;
            }
        }
        String formKind = blankToNull(params.of("kind"));
        if (named.isEmpty() && formKind != null && KINDS.contains(formKind) && blankToNull(params.of("name")) != null) {
            kind = params.of("kind").strip();
            name = params.of("name").strip();
            named.add(kind);
        }
        if (named.size() > 1) {
            page.message(Message.error("Name one subject", "The address names " + String.join(" and ", named) + "; a triage starts from one.",
                    "Pick one in the form above."));
            return Optional.empty();
        }
        if (kind == null) {
            return Optional.empty();
        }
        Instant at = null;
        String atText = blankToNull(params.of("at"));
        if (atText != null) {
            Optional<Instant> parsed = Format.instant(atText);
            if (parsed.isEmpty()) {
                page.message(Message.error("That instant is not readable", "at must be a time such as 2026-11-30T12:00:00Z, got '"
                        + atText + "'.", "Pick a time in the form above, or leave it empty for now."));
                return Optional.empty();
            }
            at = parsed.get();
        }
        String namespace = kind.equals("node") ? null : blankToNull(params.of("namespace"));
        return Optional.of(new TriageSubject(kind, namespace, name, blankToNull(params.of("cluster")), at));
    }

    /** The query the API takes, values encoded. */
    public String query() {
        StringBuilder q = new StringBuilder();
        if (namespace != null) {
            q.append("namespace=").append(Format.query(namespace)).append('&');
        }
        q.append(kind).append('=').append(Format.query(name));
        if (cluster != null) {
            q.append("&cluster=").append(Format.query(cluster));
        }
        if (at != null) {
            q.append("&at=").append(Format.query(Format.rfc3339(at)));
        }
        return q.toString();
    }

    /** This triage's page. */
    public String link() {
        return "/triage?" + query();
    }

    /** The triage page of a subject another page shows; {@code at} null for now. */
    static String link(String kind, String namespace, String name, String cluster, Instant at) {
        return new TriageSubject(kind, kind.equals("node") ? null : namespace, name, cluster, at).link();
    }

    /** e.g. {@code pod acme-ml/train-7} or {@code node gpu-a}, as the page's heading names it. */
    public String title() {
        return kind + " " + (namespace == null ? "" : namespace + "/") + name;
    }

    /** For the form's datetime-local input, in UTC; empty for now. */
    public String atMinute() {
        return at == null ? "" : Format.minute(at);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    /** The address's parameters by name. */
    interface Params {
        String of(String name);
    }
}
