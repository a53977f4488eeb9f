package io.gpumeter.launcher.kube;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIGroupList;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DiscoveryTest {

    private static Pod pod() {
        return new PodBuilder().withNewMetadata().withName("probe-0").withNamespace("team-a").withUid("u-probe-0")
                .withCreationTimestamp("2026-12-01T10:00:00Z").endMetadata()
                .withNewSpec().withNodeName("gpu-a100-01").addNewContainer().withName("main").withImage("busybox")
                .endContainer().endSpec()
                .withNewStatus().withPhase("Running").endStatus().build();
    }

    @Test
    void theFabric8ClientDiscoversTheCoreKindsAndTheAppsAndDraGroupsOnly() {
        try (SimulatedApiServer server = SimulatedApiServer.start()) {
            APIGroupList groups = server.client().getApiGroups();
            // apps for the GPU stack's DaemonSets, resource.k8s.io for the DRA pool
            assertEquals(List.of("apps", "resource.k8s.io"), groups.getGroups().stream().map(APIGroup::getName).toList());
            APIResourceList apps = server.client().getApiResources("apps/v1");
            assertEquals("apps/v1", apps.getGroupVersion());
            assertEquals(Set.of("daemonsets", "deployments"), apps.getResources().stream().map(APIResource::getName)
                    .collect(Collectors.toSet()));
            assertTrue(apps.getResources().stream().allMatch(APIResource::getNamespaced));
            assertTrue(server.client().supports(io.fabric8.kubernetes.api.model.apps.DaemonSet.class));
            APIGroup dra = server.client().getApiGroup("resource.k8s.io");
            assertEquals("resource.k8s.io/v1", dra.getPreferredVersion().getGroupVersion());
            assertEquals(List.of("v1"), dra.getVersions().stream().map(GroupVersionForDiscovery::getVersion).toList());
            APIResourceList draKinds = server.client().getApiResources("resource.k8s.io/v1");
            assertEquals("resource.k8s.io/v1", draKinds.getGroupVersion());
            assertEquals(Set.of("resourceclaims", "resourceslices", "deviceclasses"), draKinds.getResources().stream()
                    .map(APIResource::getName).collect(Collectors.toSet()));
            assertTrue(draKinds.getResources().stream().filter(r -> r.getName().equals("resourceclaims"))
                    .allMatch(APIResource::getNamespaced));
            assertTrue(draKinds.getResources().stream().filter(r -> !r.getName().equals("resourceclaims"))
                    .noneMatch(APIResource::getNamespaced));
            assertTrue(server.client().supports(ResourceSlice.class));
            assertNull(server.client().getApiGroup("resource.k8s.io.example"), "only the groups listed are served");
            assertNull(server.client().getApiGroup("kueue.x-k8s.io"), "Kueue is not served here");
            APIResourceList core = server.client().getApiResources("v1");
            assertEquals("v1", core.getGroupVersion());
            Set<String> plurals = core.getResources().stream().map(APIResource::getName).collect(Collectors.toSet());
            assertEquals(Set.of("namespaces", "nodes", "pods", "events"), plurals);
            APIResource pods = core.getResources().stream().filter(r -> r.getName().equals("pods")).findFirst().orElseThrow();
            assertTrue(pods.getNamespaced());
            assertEquals("Pod", pods.getKind());
            assertTrue(pods.getVerbs().containsAll(List.of("get", "list", "watch", "create")));
            assertTrue(server.client().supports(Pod.class));

            server.client().resource(pod()).create();
            assertEquals("probe-0", server.client().pods().inNamespace("team-a").withName("probe-0").get()
                    .getMetadata().getName());
        }
    }

    @Test
    void kubectlGetsAndDescribesWhatTheServerHolds() throws Exception {
        String kubectl = onPath("kubectl");
        Assumptions.assumeTrue(kubectl != null, "kubectl is not installed on this machine");
        Path home = Files.createTempDirectory("kubectl-home");
        try (SimulatedApiServer server = SimulatedApiServer.start()) {
            server.client().resource(pod()).create();
            Result get = run(home, kubectl, "--server", server.url(), "get", "pods", "-A");
            assertEquals(0, get.code(), get.text());
            assertTrue(get.text().contains("probe-0") && get.text().contains("team-a"), get.text());
            assertFalse(get.text().contains("doesn't have a resource type"), get.text());

            Result shortName = run(home, kubectl, "--server", server.url(), "get", "po", "-n", "team-a", "-o", "name");
            assertEquals(0, shortName.code(), shortName.text());
            assertEquals("pod/probe-0", shortName.text().strip());

            Result describe = run(home, kubectl, "--server", server.url(), "describe", "pod", "probe-0", "-n", "team-a");
            assertEquals(0, describe.code(), describe.text());
            assertTrue(describe.text().contains("gpu-a100-01"), describe.text());

            server.client().resource(new io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder().withNewMetadata()
                    .withName("nvidia-dcgm-exporter").withNamespace("gpu-operator").endMetadata().withNewSpec()
                    .withNewSelector().addToMatchLabels("app", "nvidia-dcgm-exporter").endSelector().withNewTemplate()
                    .withNewMetadata().addToLabels("app", "nvidia-dcgm-exporter").endMetadata().withNewSpec()
                    .addNewContainer().withName("nvidia-dcgm-exporter")
                    .withImage("nvcr.io/nvidia/k8s/dcgm-exporter:3.3.5-3.4.1-ubuntu22.04").endContainer().endSpec()
                    .endTemplate().endSpec().build()).create();
            Result daemonSets = run(home, kubectl, "--server", server.url(), "get", "ds", "-n", "gpu-operator", "-o", "name");
            assertEquals(0, daemonSets.code(), daemonSets.text());
            assertEquals("daemonset.apps/nvidia-dcgm-exporter", daemonSets.text().strip());
        }
    }

    private record Result(int code, String text) {
    }

    private static Result run(Path home, String... command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("HOME", home.toString());
        builder.environment().put("KUBECONFIG", home.resolve("none").toString());
        Process process = builder.start();
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return new Result(-1, "timed out");
        }
        return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    private static String onPath(String name) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
        for (String dir : dirs) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return null;
    }
}
