package io.gpumeter.slo.triage;

import io.gpumeter.common.client.Answers;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.common.triage.TriageRequest;
import io.gpumeter.slo.client.LedgerClient;
import io.gpumeter.slo.client.Occupant;
import io.gpumeter.slo.client.PodHoldings;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where a service's pods ran, as the ledger booked them, in one bulk read: and so the service's cluster and tenant,
 * and the tenant of each pod an answer may name.
 */
@ApplicationScoped
public class ServicePlacements {

    private final LedgerClient ledger;

    public ServicePlacements(LedgerClient ledger) {
        this.ledger = ledger;
    }

    /** Where pods ran over a window, or (null holdings) why the ledger could not say. */
    record Placements(Map<String, List<PodHoldings.Holding>> holdings, String note) {
    }

    Uni<Placements> of(Set<String> pods, TimeWindow window, String cluster) {
        if (pods.isEmpty()) {
            return Uni.createFrom().item(new Placements(Map.of(), null));
        }
        return ledger.holdings(pods, window)
                .map(held -> {
                    if (cluster == null) {
                        return new Placements(held, null);
                    }
                    Map<String, List<PodHoldings.Holding>> in = new HashMap<>();
                    held.forEach((pod, units) -> in.put(pod, units.stream()
                            .filter(h -> h.occupant() != null && cluster.equals(h.occupant().cluster())).toList()));
                    return new Placements(in, null);
                })
                .onFailure().recoverWithItem(e -> new Placements(null, "ledger: where its pods ran could not be read ("
                        + Answers.reason(e) + "); its tenant, nodes and changes are not known"));
    }

    /** The subject with the tenant and cluster of the pods the ledger placed. */
    static Triage.Subject subject(TriageRequest r, Placements p) {
        Set<String> tenants = new TreeSet<>();
        Set<String> clusters = new TreeSet<>();
        if (p.holdings() != null) {
            p.holdings().values().forEach(units -> units.forEach(h -> {
                Occupant o = h.occupant();
                if (o != null && o.tenant() != null) {
                    tenants.add(o.tenant());
                }
                if (o != null && o.cluster() != null) {
                    clusters.add(o.cluster());
                }
            }));
        }
        String cluster = r.cluster() != null ? r.cluster() : clusters.size() == 1 ? clusters.iterator().next() : null;
        // a namespace belongs to one tenant; pods read as several are named by none rather than by a guess
        String tenant = tenants.size() == 1 ? tenants.iterator().next() : null;
        return new Triage.Subject(Triage.SubjectKind.SERVICE, cluster, r.namespace(), r.name(), null, tenant);
    }

    /** The tenant of every pod the answer may name: its own (the subject's) and its neighbours' as the ledger told. */
    static Map<String, String> tenants(Set<String> pods, Triage.Subject subject, PerformanceDiagnosis.Neighbourhood hood) {
        Map<String, String> out = new LinkedHashMap<>();
        if (subject.tenant() != null) {
            pods.forEach(p -> out.put(p, subject.tenant()));
            hood.pods().forEach(p -> out.put(p.namespace() + "/" + p.pod(), subject.tenant()));
        }
        hood.neighbours().forEach(n -> out.put(n.namespace() + "/" + n.pod(), n.tenant()));
        return out;
    }
}
