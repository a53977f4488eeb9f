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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Least privilege, exactly: what each ServiceAccount may do, as "scope group/resource verb" grants (scope: cluster
 * or the service's own namespace), derived from the rendered roles and bindings. The collector's reads of the GPU
 * stack's workloads live apart, in k8s/collector-gpu-stack, one Role per namespace of the stack; they are checked
 * against the components the collector is configured with.
 */
class RbacTest {

    /** The kustomization of the collector's reads in the GPU stack's namespaces, applied beside an overlay. */
    static final String GPU_STACK = "collector-gpu-stack";
    /** The parts of it a platform team may apply alone, each one namespace's, by directory. */
    static final Map<String, String> GPU_STACK_PARTS = Map.of("gpu-operator", "gpu-operator", "hami", "kube-system",
            "nvidia-dra-driver-gpu", "nvidia-dra-driver-gpu", "kueue", "kueue-system", "volcano", "volcano-system");

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

    /**
     * The collector's only reads beyond its ClusterRole: get, list and watch on exactly the kinds of the configured
     * GPU-stack components, in exactly their namespaces, bound to its ServiceAccount in the namespace of the prod
     * overlay; and each part renders exactly its own namespace's.
     */
    @Test
    void theGpuStackReadsAreTheConfiguredComponentsKindsInTheirNamespacesAndNothingElse() {
        Manifests m = Manifests.of(GPU_STACK);
        Set<String> expected = new TreeSet<>();
        stackKinds().forEach((namespace, kinds) -> kinds.forEach(kind -> READ.forEach(verb -> expected.add(
                "namespace:" + namespace + " apps/" + kind.toLowerCase(Locale.ROOT) + "s " + verb))));
        assertEquals(expected, namespacedGrants(m, "collector-service"), "k8s/" + GPU_STACK);
        assertTrue(expected.stream().anyMatch(g -> g.startsWith("namespace:gpu-operator apps/daemonsets")),
                "the GPU Operator's DaemonSets are read: " + expected);

        String gpumeter = Manifests.of("overlays/prod").kind("Namespace").get(0).getMetadata().getName();
        Set<String> kinds = new TreeSet<>();
        m.objects().forEach(o -> kinds.add(o.getKind()));
        assertEquals(Set.of("Role", "RoleBinding"), kinds, "k8s/" + GPU_STACK + " holds Roles and RoleBindings only");
        for (RoleBinding b : m.all(RoleBinding.class)) {
            String where = b.getMetadata().getNamespace() + "/" + b.getMetadata().getName();
            assertEquals("Role", b.getRoleRef().getKind(), where + " binds a Role of its namespace");
            assertTrue(m.all(Role.class).stream().anyMatch(r -> r.getMetadata().getName().equals(b.getRoleRef().getName())
                    && r.getMetadata().getNamespace().equals(b.getMetadata().getNamespace())), where + " binds a missing Role");
            assertEquals(1, b.getSubjects().size(), where + ": one subject");
            Subject s = b.getSubjects().get(0);
            assertEquals(List.of("ServiceAccount", "collector-service", gpumeter),
                    List.of(s.getKind(), s.getName(), s.getNamespace()), where + ": the collector's ServiceAccount");
        }
        for (Role r : m.all(Role.class)) {
            for (PolicyRule rule : r.getRules()) {
                assertEquals(List.of("apps"), rule.getApiGroups(), r.getMetadata().getNamespace() + ": apps only");
                assertTrue(rule.getResourceNames() == null || rule.getResourceNames().isEmpty());
            }
        }
        for (Map.Entry<String, String> part : GPU_STACK_PARTS.entrySet()) {
            Manifests alone = Manifests.of(GPU_STACK + "/" + part.getKey());
            Set<String> own = new TreeSet<>();
            expected.stream().filter(g -> g.startsWith("namespace:" + part.getValue() + " ")).forEach(own::add);
            assertEquals(own, namespacedGrants(alone, "collector-service"), "k8s/" + GPU_STACK + "/" + part.getKey());
        }
        assertEquals(stackKinds().keySet(), new TreeSet<>(GPU_STACK_PARTS.values()), "a part for each stack namespace");
    }

    /** The kinds of the collector's configured GPU-stack components by namespace, from its application.properties. */
    static Map<String, Set<String>> stackKinds() {
        Properties props = new Properties();
        try (Reader in = Files.newBufferedReader(Repo.root().resolve("collector-service/src/main/resources/application.properties"))) {
            props.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Set<String>> kinds = new TreeMap<>();
        for (String key : props.stringPropertyNames()) {
            String value = props.getProperty(key).trim();
            if (!key.startsWith("gpumeter.collector.stack.components.") || value.equalsIgnoreCase("off")) {
                continue;
            }
            for (String workload : value.split(",")) {
                String[] parts = workload.trim().split("/");
                kinds.computeIfAbsent(parts[0], n -> new TreeSet<>()).add(parts[1]);
            }
        }
        assertTrue(kinds.size() >= 5, "configured stack namespaces: " + kinds);
        return kinds;
    }

    /** Grants through RoleBindings, scoped by the binding's own namespace. */
    private static Set<String> namespacedGrants(Manifests m, String account) {
        Set<String> out = new TreeSet<>();
        for (RoleBinding b : m.all(RoleBinding.class)) {
            if (names(b.getSubjects(), account)) {
                Role role = m.all(Role.class).stream().filter(r -> r.getMetadata().getName().equals(b.getRoleRef().getName())
                        && r.getMetadata().getNamespace().equals(b.getMetadata().getNamespace())).findFirst()
                        .orElseThrow(() -> new AssertionError("no Role for " + b.getMetadata().getName()));
                out.addAll(flatten("namespace:" + b.getMetadata().getNamespace(), role.getRules()));
            }
        }
        return out;
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
