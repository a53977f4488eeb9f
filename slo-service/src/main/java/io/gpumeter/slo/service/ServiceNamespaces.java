package io.gpumeter.slo.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.slo.repository.EngineGaugeRepository;
import io.gpumeter.slo.repository.LatencyRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.function.Supplier;

/**
 * Which namespace's service a read means. A service is known by its namespace (written by the cluster) and its name
 * (chosen by the pods' tenant), so a read that names only the name is answered where one namespace reports it, and is
 * asked for the namespace where several do: never merged across namespaces, which would let one tenant's pods speak
 * for another tenant's service.
 */
@ApplicationScoped
public class ServiceNamespaces {

    /** Namespaces named in a problem, at most; the count says how many more. */
    static final int LISTED = 20;
    /** The longest name the latency and engine-gauge intakes store. */
    static final int MAX_NAME = 253;

    private final LatencyRepository latency;
    private final EngineGaugeRepository gauges;

    public ServiceNamespaces(LatencyRepository latency, EngineGaugeRepository gauges) {
        this.latency = latency;
        this.gauges = gauges;
    }

    /**
     * The namespace of a latency read: the one named, else the only one whose pods reported requests of the service in
     * the window; null when none did (the read then finds nothing).
     *
     * @param field the parameter that names the namespace, for the problem
     * @throws ApiProblem 400 naming {@code field} for a malformed namespace, or when several namespaces report the
     *                    service in the window (naming them)
     */
    public Uni<String> ofRequests(String service, String namespace, TimeWindow window, String field) {
        return resolve(service, namespace, field, window, () -> latency.namespacesOf(service, window));
    }

    /** Like {@link #ofRequests}, for engine gauges: the namespaces whose pods reported the service's gauges. */
    public Uni<String> ofGauges(String service, String namespace, TimeWindow window, String field) {
        return resolve(service, namespace, field, window, () -> gauges.namespacesOf(service, window));
    }

    /**
     * The namespace a new service SLO means when it names none: the only one whose pods ever reported the service.
     *
     * @throws ApiProblem 400 naming {@code selector.namespace} when several did, or none has yet
     */
    public Uni<String> ofStoredService(String service) {
        return latency.namespacesOf(service, null).map(found -> {
            if (found.size() == 1) {
                return found.get(0);
            }
            throw found.isEmpty()
                    ? ApiProblem.badRequest("selector.namespace", "selector.namespace is required: no pod has"
                    + " reported service '" + service + "' yet, so its namespace cannot be told from its name")
                    : ambiguous("selector.namespace", "service '" + service + "'", found, "");
        });
    }

    /**
     * A namespace parameter as sent: null when absent or blank, else the namespace as the intake stores one (at most
     * {@value #MAX_NAME} characters), so that every stored namespace can be named.
     */
    public static String parameter(String field, String namespace) {
        if (namespace == null || namespace.isBlank()) {
            return null;
        }
        String ns = namespace.strip();
        if (ns.length() > MAX_NAME) {
            throw ApiProblem.badRequest(field, field + " must be a namespace of at most " + MAX_NAME
                    + " characters, got " + ns.length());
        }
        return ns;
    }

    /** The problem of a name several namespaces report: it names them and asks for the one meant. */
    public static ApiProblem ambiguous(String field, String what, List<String> namespaces, String where) {
        String listed = String.join(", ", namespaces.subList(0, Math.min(LISTED, namespaces.size())))
                + (namespaces.size() > LISTED ? " and " + (namespaces.size() - LISTED) + " more" : "");
        return ApiProblem.badRequest(field, what + " is reported by the pods of " + namespaces.size()
                + " namespaces" + where + ": " + listed + ". A service is known by its namespace and its name; name"
                + " the one meant with " + field);
    }

    private static Uni<String> resolve(String service, String namespace, String field, TimeWindow window,
                                       Supplier<Uni<List<String>>> reporting) {
        String named = parameter(field, namespace);
        if (named != null) {
            return Uni.createFrom().item(named);
        }
        return reporting.get().map(found -> {
            if (found.size() > 1) {
                throw ambiguous(field, "service '" + service + "'", found, " between " + window.start() + " and "
                        + window.end());
            }
            return found.isEmpty() ? null : found.get(0);
        });
    }
}
