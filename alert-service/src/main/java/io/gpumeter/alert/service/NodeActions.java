package io.gpumeter.alert.service;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.gpumeter.alert.domain.ActionResult;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Map;
import java.util.function.Supplier;

/**
 * Node actions through the Kubernetes API with nothing but PATCH on nodes (the service account's only right on
 * them): cordon, freeze decode workloads, annotate, and their undos, which touch only what gpumeter marked as its own.
 * Blocking calls: run them off the event loop.
 */
@ApplicationScoped
public class NodeActions {

    private final KubernetesClient kubernetes;

    public NodeActions(KubernetesClient kubernetes) {
        this.kubernetes = kubernetes;
    }

    public Outcome cordon(String node, String reason) {
        return call(node, () -> {
            Node now = read(node);
            if (Boolean.TRUE.equals(now.getSpec() == null ? null : now.getSpec().getUnschedulable())) {
                return ours(now, NodePatches.CORDONED_BY)
                        ? Outcome.applied("node " + node + " was already cordoned by gpumeter")
                        : Outcome.inPlace("node " + node + " was already cordoned; gpumeter will not uncordon it");
            }
            patch(node, PatchType.JSON_MERGE, NodePatches.cordon(reason));
            return Outcome.applied("cordoned node " + node + " (annotation " + NodePatches.CORDONED_BY + ")");
        });
    }

    public Outcome uncordon(String node) {
        return undo(node, NodePatches.CORDONED_BY, NodePatches.uncordon(), "uncordoned node " + node,
                "node " + node + " no longer carries gpumeter's cordon mark; left as it is");
    }

    public Outcome freezeDecode(String node, boolean taint) {
        return call(node, () -> {
            Node now = read(node);
            Map<String, String> labels = now.getMetadata().getLabels();
            if (labels != null && "true".equals(labels.get(NodePatches.DECODE_FROZEN))) {
                return ours(now, NodePatches.DECODE_FROZEN_BY)
                        ? Outcome.applied("node " + node + " was already decode-frozen by gpumeter")
                        : Outcome.inPlace("node " + node + " already carried " + NodePatches.DECODE_FROZEN + "=true");
            }
            patch(node, PatchType.JSON_MERGE, NodePatches.freeze());
            if (taint) {
                patch(node, PatchType.STRATEGIC_MERGE, NodePatches.taint());
            }
            return Outcome.applied("labelled node " + node + " " + NodePatches.DECODE_FROZEN + "=true"
                    + (taint ? " and tainted it NoSchedule" : ""));
        });
    }

    public Outcome unfreezeDecode(String node, boolean taint) {
        Outcome out = undo(node, NodePatches.DECODE_FROZEN_BY, NodePatches.unfreeze(),
                "removed " + NodePatches.DECODE_FROZEN + " from node " + node,
                "node " + node + " no longer carries gpumeter's decode-freeze mark; left as it is");
        if (taint && out.result() == ActionResult.APPLIED) {
            return call(node, () -> {
                patch(node, PatchType.STRATEGIC_MERGE, NodePatches.untaint());
                return Outcome.applied(out.detail() + " and its taint");
            });
        }
        return out;
    }

    public Outcome annotate(String node, String key, String value) {
        return call(node, () -> {
            patch(node, PatchType.JSON_MERGE, NodePatches.annotate(key, value));
            return Outcome.applied("annotated node " + node + " " + key);
        });
    }

    public Outcome unannotate(String node, String key) {
        return call(node, () -> {
            patch(node, PatchType.JSON, NodePatches.unannotate(key));
            return Outcome.applied("removed annotation " + key + " from node " + node);
        });
    }

    /**
     * An undo only where gpumeter's mark is on the node; the patch tests the mark again, so a change made by someone
     * else between the read and the write makes the whole patch fail instead of undoing their work.
     */
    private Outcome undo(String node, String mark, String guardedPatch, String done, String notOurs) {
        return call(node, () -> {
            if (!ours(read(node), mark)) {
                return Outcome.inPlace(notOurs);
            }
            try {
                patch(node, PatchType.JSON, guardedPatch);
                return Outcome.applied(done);
            } catch (KubernetesClientException e) {
                if (e.getCode() == 409 || e.getCode() == 422) {
                    return Outcome.inPlace(notOurs);
                }
                throw e;
            }
        });
    }

    /**
     * The node as it is now, read through an empty merge patch: a no-op that needs only the PATCH right and returns
     * the object.
     */
    private Node read(String node) {
        Node stub = new NodeBuilder().withNewMetadata().withName(node).endMetadata().build();
        Node now = kubernetes.nodes().resource(stub).patch(PatchContext.of(PatchType.JSON_MERGE), "{}");
        if (now == null) {
            throw new KubernetesClientException("node " + node + " not found", 404, null);
        }
        return now;
    }

    private static boolean ours(Node node, String mark) {
        Map<String, String> annotations = node.getMetadata().getAnnotations();
        return annotations != null && NodePatches.OWNER.equals(annotations.get(mark));
    }

    /** Patches by name alone: resource(stub) keeps fabric8 from reading the node first, which RBAC would refuse. */
    private void patch(String node, PatchType type, String body) {
        Node stub = new NodeBuilder().withNewMetadata().withName(node).endMetadata().build();
        if (kubernetes.nodes().resource(stub).patch(PatchContext.of(type), body) == null) {
            throw new KubernetesClientException("node " + node + " not found", 404, null);
        }
    }

    private static Outcome call(String node, Supplier<Outcome> action) {
        try {
            return action.get();
        } catch (KubernetesClientException e) {
            return Outcome.failed(switch (e.getCode()) {
                case 404 -> "node " + node + " not found";
                case 401, 403 -> "the service account may not patch node " + node + " (HTTP " + e.getCode() + ")";
                default -> "Kubernetes API: " + (e.getCode() == 0 ? "" : "HTTP " + e.getCode() + " ") + brief(e.getMessage());
            });
        } catch (RuntimeException e) {
            return Outcome.failed("Kubernetes API: " + brief(e.getMessage()));
        }
    }

    private static String brief(String message) {
        if (message == null) {
            return "no detail";
        }
        return message.length() > 200 ? message.substring(0, 200) + "…" : message;
    }
}
