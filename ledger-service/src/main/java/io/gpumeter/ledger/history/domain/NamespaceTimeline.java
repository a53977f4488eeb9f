package io.gpumeter.ledger.history.domain;

import io.gpumeter.common.fact.NamespaceFact;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.TreeSet;

/**
 * A namespace's tenant, team and project label values over time. A change takes effect at the time of the
 * managedFields entry that set the label (so a replayed history splits at the right instant), else when the
 * changed version was observed; the first value seen also covers everything before it. It also keeps when the
 * namespace admitted DRA admin access (Kubernetes' {@value #ADMIN_ACCESS_LABEL} label set to "true"), where the
 * first value seen is not stretched back before the managedFields entry that set it: a claim's admin access bills
 * nothing only where the namespace is known to have carried the label.
 */
public final class NamespaceTimeline {

    private final String namespace;
    private final List<Change> tenant;
    private final List<Change> team;
    private final List<Change> project;
    private final NavigableSet<Instant> changeInstants;
    private final List<Change> adminAccess;
    private final NavigableSet<Instant> adminAccessChanges;

    /** The label Kubernetes requires on a namespace before it admits a ResourceClaim with admin access there. */
    public static final String ADMIN_ACCESS_LABEL = "resource.kubernetes.io/admin-access";

    private record Change(Instant from, String value) {
    }

    private NamespaceTimeline(String namespace, List<Change> tenant, List<Change> team, List<Change> project,
                              List<Change> adminAccess) {
        this.namespace = namespace;
        this.adminAccess = adminAccess;
        TreeSet<Instant> adminInstants = new TreeSet<>();
        adminAccess.stream().map(Change::from).filter(Objects::nonNull).forEach(adminInstants::add);
        this.adminAccessChanges = Collections.unmodifiableNavigableSet(adminInstants);
        this.tenant = tenant;
        this.team = team;
        this.project = project;
        TreeSet<Instant> instants = new TreeSet<>();
        for (List<Change> changes : List.of(tenant, team, project)) {
            for (Change change : changes) {
                if (change.from() != null) {
                    instants.add(change.from());
                }
            }
        }
        this.changeInstants = Collections.unmodifiableNavigableSet(instants);
    }

    public static NamespaceTimeline of(String namespace, List<NamespaceFact> facts, String tenantKey, String teamKey,
                                       String projectKey) {
        List<NamespaceFact> ordered = facts.stream()
                .sorted(Comparator.comparing((NamespaceFact f) -> ResourceVersions.revision(f.resourceVersion()), Comparator.nullsFirst(Comparator.naturalOrder()))
                        .thenComparing(NamespaceFact::observedAt))
                .toList();
        return new NamespaceTimeline(namespace, changes(ordered, tenantKey), changes(ordered, teamKey),
                changes(ordered, projectKey), adminAccessChanges(ordered));
    }

    /** A namespace never observed: it is its own tenant, with no team or project. */
    public static NamespaceTimeline unknown(String namespace) {
        return new NamespaceTimeline(namespace, List.of(), List.of(), List.of(), List.of());
    }

    public String tenantAt(Instant t) {
        String value = valueAt(tenant, t);
        return value == null ? namespace : value;
    }

    public String teamAt(Instant t) {
        return valueAt(team, t);
    }

    public String projectAt(Instant t) {
        return valueAt(project, t);
    }

    /**
     * Every instant at which one of the three values changes, in order; made once, as every allocation of the
     * namespace's pods asks for them.
     */
    public NavigableSet<Instant> changeInstants() {
        return changeInstants;
    }

    /** Whether the namespace carried {@value #ADMIN_ACCESS_LABEL}=true at this instant. */
    public boolean adminAccessAt(Instant t) {
        return "true".equals(valueAt(adminAccess, t));
    }

    /** The instants at which {@link #adminAccessAt} may change, in order. */
    public NavigableSet<Instant> adminAccessChanges() {
        return adminAccessChanges;
    }

    /**
     * As {@link #changes} for the admin-access label, but a first version carrying it counts only from when its
     * managedFields entry set it (unlabelled before), as a namespace not yet seen admitted nothing.
     */
    private static List<Change> adminAccessChanges(List<NamespaceFact> ordered) {
        List<Change> changes = changes(ordered, ADMIN_ACCESS_LABEL);
        if (!changes.isEmpty() && changes.get(0).from() == null && changes.get(0).value() != null) {
            Instant set = ordered.get(0).labelTimes().get(ADMIN_ACCESS_LABEL);
            if (set != null) {
                List<Change> bounded = new ArrayList<>(changes);
                bounded.set(0, new Change(set, changes.get(0).value()));
                bounded.add(0, new Change(null, null));
                bounded.sort(Comparator.comparing(Change::from, Comparator.nullsFirst(Comparator.naturalOrder())));
                return bounded;
            }
        }
        return changes;
    }

    private static List<Change> changes(List<NamespaceFact> ordered, String key) {
        List<Change> changes = new ArrayList<>();
        for (NamespaceFact fact : ordered) {
            String value = blankToNull(fact.labels().get(key));
            if (changes.isEmpty()) {
                changes.add(new Change(null, value));
            } else if (!Objects.equals(changes.get(changes.size() - 1).value(), value)) {
                Instant at = value != null && fact.labelTimes().containsKey(key) ? fact.labelTimes().get(key) : fact.observedAt();
                changes.add(new Change(at, value));
            }
        }
        changes.sort(Comparator.comparing(Change::from, Comparator.nullsFirst(Comparator.naturalOrder())));
        return changes;
    }

    private static String valueAt(List<Change> changes, Instant t) {
        String value = null;
        for (Change change : changes) {
            if (change.from() == null || !change.from().isAfter(t)) {
                value = change.value();
            }
        }
        return value;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
