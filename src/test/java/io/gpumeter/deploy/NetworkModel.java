package io.gpumeter.deploy;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Evaluates Kubernetes NetworkPolicies the way the API defines them, for a set of endpoints: pods (in the
 * policies' namespace or others) and addresses outside the cluster. A connection is allowed when the source's
 * egress and the destination's ingress both allow it; a pod no policy selects for a direction is open in it.
 */
final class NetworkModel {

    /**
     * A pod ({@code namespace} set) or an address outside the cluster ({@code namespace} null), with its named ports.
     */
    record Endpoint(String name, String namespace, Map<String, String> labels, Map<String, String> namespaceLabels,
                    Map<String, Integer> ports) {

        static Endpoint pod(String name, String namespace, Map<String, String> labels, Map<String, Integer> ports) {
            return new Endpoint(name, namespace, labels, Map.of("kubernetes.io/metadata.name", namespace), ports);
        }

        static Endpoint outside(String name, Map<String, Integer> ports) {
            return new Endpoint(name, null, Map.of(), Map.of(), ports);
        }

        boolean inCluster() {
            return namespace != null;
        }
    }

    private final String namespace;
    private final List<NetworkPolicy> policies;

    NetworkModel(String namespace, List<NetworkPolicy> policies) {
        this.namespace = namespace;
        this.policies = policies;
        for (NetworkPolicy p : policies) {
            for (var rule : Optional.ofNullable(p.getSpec().getIngress()).orElse(List.of())) {
                Optional.ofNullable(rule.getFrom()).orElse(List.of()).forEach(NetworkModel::requireModelled);
            }
            for (var rule : Optional.ofNullable(p.getSpec().getEgress()).orElse(List.of())) {
                Optional.ofNullable(rule.getTo()).orElse(List.of()).forEach(NetworkModel::requireModelled);
            }
        }
    }

    /** Whether {@code from} may open a connection to {@code to} on a port (TCP or UDP). */
    boolean allows(Endpoint from, Endpoint to, int port, String protocol) {
        return egressAllows(from, to, port, protocol) && ingressAllows(from, to, port, protocol);
    }

    private boolean egressAllows(Endpoint from, Endpoint to, int port, String protocol) {
        List<NetworkPolicy> selecting = selecting(from, "Egress");
        if (selecting.isEmpty()) {
            return true;
        }
        return selecting.stream().flatMap(p -> Optional.ofNullable(p.getSpec().getEgress()).orElse(List.of()).stream())
                .anyMatch(rule -> peersMatch(rule.getTo(), to) && portsMatch(rule.getPorts(), to, port, protocol));
    }

    private boolean ingressAllows(Endpoint from, Endpoint to, int port, String protocol) {
        List<NetworkPolicy> selecting = selecting(to, "Ingress");
        if (selecting.isEmpty()) {
            return true;
        }
        return selecting.stream().flatMap(p -> Optional.ofNullable(p.getSpec().getIngress()).orElse(List.of()).stream())
                .anyMatch(rule -> peersMatch(rule.getFrom(), from) && portsMatch(rule.getPorts(), to, port, protocol));
    }

    /** Policies of this namespace that select the endpoint for a direction (none for endpoints elsewhere). */
    private List<NetworkPolicy> selecting(Endpoint e, String direction) {
        if (!namespace.equals(e.namespace())) {
            return List.of();
        }
        return policies.stream()
                .filter(p -> types(p).contains(direction))
                .filter(p -> matches(p.getSpec().getPodSelector(), e.labels()))
                .toList();
    }

    private static List<String> types(NetworkPolicy p) {
        List<String> types = p.getSpec().getPolicyTypes();
        if (types != null && !types.isEmpty()) {
            return types;
        }
        return p.getSpec().getEgress() != null && !p.getSpec().getEgress().isEmpty()
                ? List.of("Ingress", "Egress") : List.of("Ingress");
    }

    private boolean peersMatch(List<NetworkPolicyPeer> peers, Endpoint e) {
        if (peers == null || peers.isEmpty()) {
            return true;
        }
        return peers.stream().anyMatch(peer -> {
            if (!e.inCluster()) {
                return false;
            }
            if (peer.getNamespaceSelector() == null) {
                return namespace.equals(e.namespace()) && matches(peer.getPodSelector(), e.labels());
            }
            return matches(peer.getNamespaceSelector(), e.namespaceLabels())
                    && (peer.getPodSelector() == null || matches(peer.getPodSelector(), e.labels()));
        });
    }

    private static boolean portsMatch(List<NetworkPolicyPort> ports, Endpoint to, int port, String protocol) {
        if (ports == null || ports.isEmpty()) {
            return true;
        }
        return ports.stream().anyMatch(p -> {
            String proto = p.getProtocol() == null ? "TCP" : p.getProtocol();
            if (!proto.equals(protocol)) {
                return false;
            }
            if (p.getPort() == null) {
                return true;
            }
            IntOrString want = p.getPort();
            int low = want.getStrVal() != null ? Optional.ofNullable(to.ports().get(want.getStrVal())).orElse(-1) : want.getIntVal();
            int high = p.getEndPort() != null ? p.getEndPort() : low;
            return port >= low && port <= high;
        });
    }

    static boolean matches(LabelSelector selector, Map<String, String> labels) {
        if (selector == null) {
            return true;
        }
        Map<String, String> required = Optional.ofNullable(selector.getMatchLabels()).orElse(Map.of());
        if (!labels.entrySet().containsAll(required.entrySet())) {
            return false;
        }
        for (LabelSelectorRequirement r : Optional.ofNullable(selector.getMatchExpressions()).orElse(List.of())) {
            String value = labels.get(r.getKey());
            boolean ok = switch (r.getOperator()) {
                case "In" -> value != null && r.getValues().contains(value);
                case "NotIn" -> value == null || !r.getValues().contains(value);
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                default -> throw new AssertionError("unknown selector operator " + r.getOperator());
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static void requireModelled(NetworkPolicyPeer peer) {
        if (peer.getIpBlock() != null) {
            throw new AssertionError("ipBlock peers are not modelled by this test; extend NetworkModel first");
        }
    }
}
