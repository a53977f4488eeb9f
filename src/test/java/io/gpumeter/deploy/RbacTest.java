package io.gpumeter.deploy;

import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Least privilege, exactly: what each ServiceAccount may do, as "scope group/resource verb" grants (scope: cluster
 * or the service's own namespace), derived from the rendered roles and bindings.
 */
class RbacTest {

    private static final Set<String> READ = Set.of("get", "list", "watch");

    /** Every grant each service has; a service missing here has none at all. */
    static final Map<String, Set<String>> EXPECTED = Map.of(
            "collector-service", grants("cluster", Map.ofEntries(
                    Map.entry("/pods", READ), Map.entry("/nodes", READ), Map.entry("/namespaces", READ),
                    Map.entry("/events", READ),
                    Map.entry("resource.k8s.io/resourceclaims", READ), Map.entry("resource.k8s.io/resourceslices", READ),
                    Map.entry("resource.k8s.io/deviceclasses", READ),
                    Map.entry("kueue.x-k8s.io/workloads", READ), Map.entry("kueue.x-k8s.io/clusterqueues", READ),
                    Map.entry("kueue.x-k8s.io/localqueues", READ), Map.entry("kueue.x-k8s.io/resourceflavors", READ),
                    Map.entry("scheduling.volcano.sh/podgroups", READ), Map.entry("scheduling.volcano.sh/queues", READ),
                    Map.entry("batch.volcano.sh/jobs", READ),
                    // Kueue's pending positions come from its visibility API, a subresource that is only read.
                    Map.entry("visibility.kueue.x-k8s.io/clusterqueues/pendingworkloads", Set.of("get")))),
            "alert-service", union(grants("cluster", Map.of("/nodes", Set.of("patch"))),
                    grants("namespace", Map.of("batch/jobs", Set.of("create")))));

    static Stream<String> applied() {
        return Manifests.APPLIED.stream();
    }

    @ParameterizedTest(name = "k8s/{0}")
    @MethodSource("applied")
    void everyServiceAccountHasExactlyTheListedGrants(String dir) {
        Manifests m = Manifests.of(dir);
        for (String svc : Repo.SERVICES) {
            String account = svc + "-service";
            assertEquals(EXPECTED.getOrDefault(account, Set.of()), grantsOf(m, account), account + " in k8s/" + dir);
        }
    }

    @ParameterizedTest(name = "k8s/{0}")
    @MethodSource("applied")
    void noRoleOrBindingBeyondThoseAndNoWildcards(String dir) {
        Manifests m = Manifests.of(dir);
        String namespace = m.kind("Namespace").stream().map(n -> n.getMetadata().getName()).findFirst().orElse("default");
        for (ClusterRoleBinding b : m.all(ClusterRoleBinding.class)) {
            assertBinding(m, b.getMetadata().getName(), b.getRoleRef(), b.getSubjects(), namespace);
        }
        for (RoleBinding b : m.all(RoleBinding.class)) {
            assertBinding(m, b.getMetadata().getName(), b.getRoleRef(), b.getSubjects(), namespace);
        }
        Stream.concat(m.all(ClusterRole.class).stream().map(r -> Map.entry(r.getMetadata().getName(), r.getRules())),
                        m.all(Role.class).stream().map(r -> Map.entry(r.getMetadata().getName(), r.getRules())))
                .forEach(e -> {
                    for (PolicyRule rule : e.getValue()) {
                        assertFalse(rule.getVerbs().contains("*") || rule.getResources().contains("*")
                                || rule.getApiGroups().contains("*"), e.getKey() + ": wildcard rule");
                        assertTrue(rule.getNonResourceURLs() == null || rule.getNonResourceURLs().isEmpty(),
                                e.getKey() + ": non-resource URLs");
                    }
                });
        assertEquals(2, m.all(ClusterRole.class).size(), "ClusterRoles: the collector's and alert's node actions");
        assertEquals(1, m.all(Role.class).size(), "Roles: alert's snapshot Jobs");
    }

    @ParameterizedTest(name = "k8s/{0}")
    @MethodSource("applied")
    void servicesWithoutGrantsGetNoToken(String dir) {
        Manifests m = Manifests.of(dir);
        for (String svc : Repo.SERVICES) {
            String account = svc + "-service";
            boolean needsApi = EXPECTED.containsKey(account);
            ServiceAccount sa = m.get(ServiceAccount.class, account);
            Deployment d = m.get(Deployment.class, account);
            assertEquals(needsApi, sa.getAutomountServiceAccountToken(), account + ": ServiceAccount automount");
            assertEquals(needsApi, d.getSpec().getTemplate().getSpec().getAutomountServiceAccountToken(), account + ": pod automount");
        }
    }

    private static void assertBinding(Manifests m, String name, RoleRef ref, List<Subject> subjects, String namespace) {
        assertEquals("rbac.authorization.k8s.io", ref.getApiGroup(), name);
        assertTrue(m.find(ref.getKind(), ref.getName()).isPresent(), name + " binds a missing " + ref.getKind() + " " + ref.getName());
        assertNotNull(subjects, name + ": no subjects");
        for (Subject s : subjects) {
            assertEquals("ServiceAccount", s.getKind(), name + ": only ServiceAccounts are bound");
            assertTrue(m.find("ServiceAccount", s.getName()).isPresent(), name + " binds a missing ServiceAccount " + s.getName());
            assertEquals(namespace, s.getNamespace(), name + ": subject namespace");
        }
    }

    /** The grants of one ServiceAccount through every binding that names it. */
    static Set<String> grantsOf(Manifests m, String account) {
        Set<String> out = new TreeSet<>();
        for (ClusterRoleBinding b : m.all(ClusterRoleBinding.class)) {
            if (names(b.getSubjects(), account)) {
                out.addAll(flatten("cluster", rulesOf(m, b.getRoleRef())));
            }
        }
        for (RoleBinding b : m.all(RoleBinding.class)) {
            if (names(b.getSubjects(), account)) {
                out.addAll(flatten("namespace", rulesOf(m, b.getRoleRef())));
            }
        }
        return out;
    }

    private static boolean names(List<Subject> subjects, String account) {
        return Optional.ofNullable(subjects).orElse(List.of()).stream()
                .anyMatch(s -> "ServiceAccount".equals(s.getKind()) && account.equals(s.getName()));
    }

    private static List<PolicyRule> rulesOf(Manifests m, RoleRef ref) {
        if (ref.getKind().equals("ClusterRole")) {
            return m.get(ClusterRole.class, ref.getName()).getRules();
        }
        return m.get(Role.class, ref.getName()).getRules();
    }

    private static Set<String> flatten(String scope, List<PolicyRule> rules) {
        Set<String> out = new TreeSet<>();
        for (PolicyRule r : rules) {
            for (String group : r.getApiGroups()) {
                for (String resource : r.getResources()) {
                    for (String verb : r.getVerbs()) {
                        out.add(scope + " " + group + "/" + resource + " " + verb);
                    }
                }
            }
        }
        return out;
    }

    private static Set<String> grants(String scope, Map<String, Set<String>> byResource) {
        Set<String> out = new TreeSet<>();
        byResource.forEach((resource, verbs) -> verbs.forEach(v -> out.add(scope + " " + resource + " " + v)));
        return out;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> out = new TreeSet<>(a);
        out.addAll(b);
        return out;
    }
}
