package io.gpumeter.ledger.demand.domain;

import io.gpumeter.common.fact.Owner;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A pod's owners, innermost first: its controller, then the owners above it that their controllers name on the pod.
 * A pod's ownerReference names only the object that made it (a JobSet's pods name their batch/v1 Job, a Kubeflow
 * Notebook's their StatefulSet), so the owners further up are read from the labels those controllers stamp on their
 * pods. Labels are the tenant's to write: what they say only ever classifies the pod that carries them.
 */
public record OwnerChain(List<Link> links) {

    /** The core API group ({@code v1}), as rules name it. */
    public static final String CORE = "core";

    /**
     * One owner. {@code group} is its API group ({@link #CORE} for the core group), null when the version was stored
     * without the reference's apiVersion.
     */
    public record Link(String group, String kind, String name) {

        /** {@code group/Kind}, as a rule names an owner. */
        public String groupKind() {
            return group + "/" + kind;
        }
    }

    /** A parent the labels of a child's pods name: {@code label}'s value is the parent's name. */
    private record Parent(String childGroup, String childKind, String label, String group, String kind) {
    }

    private static final List<Parent> PARENTS = List.of(
            new Parent("batch", "Job", "jobset.sigs.k8s.io/jobset-name", "jobset.x-k8s.io", "JobSet"),
            new Parent("apps", "StatefulSet", "leaderworkerset.sigs.k8s.io/name", "leaderworkerset.x-k8s.io", "LeaderWorkerSet"),
            new Parent("apps", "StatefulSet", "notebook-name", "kubeflow.org", "Notebook"),
            new Parent("apps", "Deployment", "serving.kserve.io/inferenceservice", "serving.kserve.io", "InferenceService"));

    /** KubeRay names the RayService or RayJob a RayCluster was made for on the cluster's pods. */
    static final String RAY_CRD = "ray.io/originated-from-crd";
    static final String RAY_CR_NAME = "ray.io/originated-from-cr-name";
    /** Kubeflow Trainer's label on the steps of a TrainJob, whose JobSet bears the TrainJob's name. */
    static final String TRAINJOB_STEP = "trainer.kubeflow.org/trainjob-ancestor-step";

    public OwnerChain {
        links = List.copyOf(links);
    }

    /** The chain of a pod with this controller and these labels; empty for a pod no controller owns. */
    public static OwnerChain of(Owner owner, Map<String, String> labels) {
        List<Link> links = new ArrayList<>();
        if (owner == null || blank(owner.kind())) {
            return new OwnerChain(links);
        }
        Map<String, String> l = labels == null ? Map.of() : labels;
        Link link = new Link(group(owner.apiVersion()), owner.kind().strip(), owner.name());
        links.add(link);
        for (Link parent = parent(link, l); parent != null && links.size() < 4; parent = parent(parent, l)) {
            links.add(parent);
        }
        return new OwnerChain(links);
    }

    /** The API group of an apiVersion: {@code apps} of {@code apps/v1}, {@link #CORE} of {@code v1}, null of none. */
    public static String group(String apiVersion) {
        if (blank(apiVersion)) {
            return null;
        }
        String v = apiVersion.strip();
        int slash = v.indexOf('/');
        return slash < 0 ? CORE : v.substring(0, slash);
    }

    private static Link parent(Link child, Map<String, String> labels) {
        for (Parent p : PARENTS) {
            String name = labels.get(p.label());
            if (p.childKind().equals(child.kind()) && sameGroup(p.childGroup(), child.group()) && !blank(name)) {
                return new Link(p.group(), p.kind(), name.strip());
            }
        }
        String crd = labels.get(RAY_CRD);
        if ("RayCluster".equals(child.kind()) && sameGroup("ray.io", child.group())
                && ("RayService".equals(crd) || "RayJob".equals(crd)) && !blank(labels.get(RAY_CR_NAME))) {
            return new Link("ray.io", crd, labels.get(RAY_CR_NAME).strip());
        }
        if ("JobSet".equals(child.kind()) && "jobset.x-k8s.io".equals(child.group()) && !blank(labels.get(TRAINJOB_STEP))) {
            return new Link("trainer.kubeflow.org", "TrainJob", child.name());
        }
        return null;
    }

    /** A link stored without its group is taken to be of the group the table expects: its labels named the parent. */
    private static boolean sameGroup(String expected, String actual) {
        return actual == null || expected.equals(actual);
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
