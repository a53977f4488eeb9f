package io.gpumeter.ledger.demand.domain;

import io.gpumeter.common.fact.Owner;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one place a pod's workload class is decided: its owner chain, outermost owner first, against the rules that
 * name an owner, in order; then the rules that name only a label, in order; else {@link WorkloadClass#OTHER}. The
 * first match decides. An owner stored without its API group (versions delivered before the collector carried it)
 * matches a rule by kind only when the rules name that kind in one group alone: a bare "Job" could be Volcano's or
 * batch/v1's, and is left to the labels.
 */
public final class WorkloadClassifier {

    /** The serving workload an inference pod belongs to. */
    public record Service(String namespace, String name) {
    }

    /**
     * @param rule    which rule decided, in words: {@code owner apps/Deployment}, {@code label component=singleuser-server},
     *                {@code none}
     * @param service the serving workload, for {@link WorkloadClass#INFERENCE} only
     */
    public record Classification(WorkloadClass workloadClass, String rule, Service service) {
    }

    public static final String NO_RULE = "none";

    private final List<ClassRule> ownerRules;
    private final List<ClassRule> labelRules;
    /** Kinds the owner rules name in exactly one group: matched by kind when the group was not recorded. */
    private final Set<String> unambiguousKinds = new HashSet<>();

    public WorkloadClassifier(List<ClassRule> rules) {
        this.ownerRules = rules.stream().filter(ClassRule::namesOwner).toList();
        this.labelRules = rules.stream().filter(r -> !r.namesOwner()).toList();
        Map<String, Set<String>> groupsByKind = new HashMap<>();
        ownerRules.forEach(r -> groupsByKind.computeIfAbsent(r.ownerKind(), k -> new HashSet<>()).add(r.ownerGroup()));
        groupsByKind.forEach((kind, groups) -> {
            if (groups.size() == 1) {
                unambiguousKinds.add(kind);
            }
        });
    }

    /** The class of one pod, from its controller (with its apiVersion) and its own labels. */
    public Classification classify(String namespace, String pod, Owner owner, Map<String, String> labels) {
        Map<String, String> l = labels == null ? Map.of() : labels;
        List<OwnerChain.Link> chain = OwnerChain.of(owner, l).links();
        for (int i = chain.size() - 1; i >= 0; i--) {
            OwnerChain.Link link = chain.get(i);
            boolean byKind = unambiguousKinds.contains(link.kind());
            for (ClassRule rule : ownerRules) {
                if (rule.matchesOwner(link, byKind) && rule.matchesLabels(l)) {
                    String said = "owner " + (link.group() == null ? link.kind() + ", API group not recorded" : link.groupKind())
                            + (rule.labelKey() == null ? "" : ", label " + rule.labelText());
                    return classified(rule.workloadClass(), said, namespace, link.name() != null ? link.name() : pod);
                }
            }
        }
        for (ClassRule rule : labelRules) {
            if (rule.matchesLabels(l)) {
                String outermost = chain.isEmpty() ? null : chain.get(chain.size() - 1).name();
                return classified(rule.workloadClass(), "label " + rule.labelText(), namespace,
                        outermost != null ? outermost : pod);
            }
        }
        return new Classification(WorkloadClass.OTHER, NO_RULE, null);
    }

    private static Classification classified(WorkloadClass c, String rule, String namespace, String serviceName) {
        return new Classification(c, rule, c == WorkloadClass.INFERENCE ? new Service(namespace, serviceName) : null);
    }
}
