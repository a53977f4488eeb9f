package io.gpumeter.deploy;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The host scrape's least privilege: k8s/collector-host grants the collector get on nodes/metrics and nothing else —
 * never nodes/proxy, which the API server's proxy to a kubelet asks for and which reaches every container's exec — and
 * opens only the kubelets' and node-exporters' ports; no applied overlay grants nodes/proxy to anyone.
 */
class HostScrapeRbacTest {

    static final String HOST = "collector-host";

    @Test
    void theKubeletScrapeIsGrantedNodesMetricsGetAlone() {
        Manifests m = Manifests.of(HOST);
        assertEquals(Set.of("cluster /nodes/metrics get"), RbacTest.grantsOf(m, "collector-service"));
        for (ClusterRoleBinding b : m.all(ClusterRoleBinding.class)) {
            assertTrue(b.getSubjects().stream().allMatch(s -> "gpumeter".equals(s.getNamespace())),
                    b.getMetadata().getName() + ": bound in the prod overlay's namespace");
        }
    }

    @Test
    void noAppliedKustomizationGrantsNodesProxy() {
        for (String dir : Manifests.APPLIED) {
            Manifests m = Manifests.of(dir);
            for (String svc : Repo.SERVICES) {
                assertTrue(RbacTest.grantsOf(m, svc + "-service").stream().noneMatch(g -> g.contains("nodes/proxy")),
                        svc + " in k8s/" + dir);
            }
        }
    }

    @Test
    void itsNetworkPolicyOpensOnlyTheKubeletAndNodeExporterPorts() {
        NetworkPolicy policy = Manifests.of(HOST).all(NetworkPolicy.class).get(0);
        assertEquals(Set.of("Egress"), Set.copyOf(policy.getSpec().getPolicyTypes()));
        Set<Integer> ports = policy.getSpec().getEgress().stream().flatMap(e -> e.getPorts().stream())
                .map(NetworkPolicyPort::getPort).map(p -> p.getIntVal()).collect(Collectors.toSet());
        assertEquals(Set.of(10250, 9100), ports);
    }
}
