package io.gpumeter.common.triage;

import io.gpumeter.common.problem.InvalidInput;
import io.gpumeter.common.problem.Params;

import java.time.Instant;

/**
 * What a triage is asked about, read from the query the scheduling-decisions read takes: exactly one of pod,
 * workload, podGroup, node or service, the first four and service with their namespace (or written
 * {@code namespace/name}), a cluster and an optional instant ({@code at}, now when absent).
 *
 * @param at null for "now"; the service reading it decides what now is
 */
public record TriageRequest(Triage.SubjectKind kind, String cluster, String namespace, String name, Instant at) {

    public static TriageRequest of(String namespace, String pod, String workload, String podGroup, String node,
                                   String service, String cluster, String at) {
        String[] given = {Params.optional(pod), Params.optional(workload), Params.optional(podGroup),
                Params.optional(node), Params.optional(service)};
        Triage.SubjectKind[] kinds = {Triage.SubjectKind.POD, Triage.SubjectKind.WORKLOAD, Triage.SubjectKind.POD_GROUP,
                Triage.SubjectKind.NODE, Triage.SubjectKind.SERVICE};
        int found = -1;
        for (int i = 0; i < given.length; i++) {
            if (given[i] != null) {
                if (found >= 0) {
                    throw new InvalidInput("pod", "name exactly one of pod, workload, podGroup, node or service");
                }
                found = i;
            }
        }
        if (found < 0) {
            throw new InvalidInput("pod", "name one of pod, workload, podGroup (each with namespace), node or service");
        }
        Triage.SubjectKind kind = kinds[found];
        String name = given[found];
        String ns = Params.optional(namespace);
        if (kind == Triage.SubjectKind.NODE) {
            if (ns != null) {
                throw new InvalidInput("namespace", "a node has no namespace; ask node= alone");
            }
        } else {
            int slash = name.indexOf('/');
            if (slash > 0 && ns == null) {
                ns = name.substring(0, slash);
                name = name.substring(slash + 1);
            }
            if (ns == null) {
                String field = kind.parameter();
                throw new InvalidInput("namespace", "namespace is required with " + field
                        + " (or write " + field + "=namespace/name)");
            }
        }
        return new TriageRequest(kind, Params.optional(cluster), ns, name, Params.instantOrNull("at", at));
    }

    /**
     * The subject's name when it is of this kind, else null: the request as the one parameter per kind a service's
     * client sends ({@code pod=}, {@code workload=}…), the others left out.
     */
    public String nameIf(Triage.SubjectKind asked) {
        return kind == asked ? name : null;
    }

    /** The request as the query string the services take, for one service to ask another the same question. */
    public String query() {
        StringBuilder q = new StringBuilder();
        if (namespace != null) {
            q.append("namespace=").append(encode(namespace)).append('&');
        }
        q.append(kind.parameter()).append('=').append(encode(name));
        if (cluster != null) {
            q.append("&cluster=").append(encode(cluster));
        }
        if (at != null) {
            q.append("&at=").append(encode(at.toString()));
        }
        return q.toString();
    }

    private static String encode(String value) {
        return java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
    }
}
