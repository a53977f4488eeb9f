package io.gpumeter.deploy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** A kustomization under k8s/ rendered by {@code kubectl kustomize} and parsed into fabric8 model objects. */
record Manifests(String dir, String yaml, List<HasMetadata> objects) {

    /** The kustomizations a platform team applies. */
    static final List<String> APPLIED = List.of("base", "overlays/dev", "overlays/prod");

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final Map<String, Manifests> RENDERED = new ConcurrentHashMap<>();

    /** Renders {@code k8s/<dir>} (once per test run); skips the test when kubectl is missing. */
    static Manifests of(String dir) {
        Path kubectl = Tools.kubectl();
        return RENDERED.computeIfAbsent(dir, d -> {
            Tools.Result result = Tools.run(Repo.k8s(), List.of(kubectl.toString(), "kustomize", d));
            if (!result.ok()) {
                throw new AssertionError("kubectl kustomize k8s/" + d + " failed:\n" + result.output());
            }
            return new Manifests(d, result.stdout(), parse(result.stdout()));
        });
    }

    /** Every document of a multi-document YAML stream as a typed model object (unknown kinds as generic ones). */
    static List<HasMetadata> parse(String yaml) {
        Object parsed = SERIALIZATION.unmarshal(yaml);
        List<HasMetadata> out = new ArrayList<>();
        if (parsed instanceof List<?> list) {
            list.forEach(o -> out.add((HasMetadata) o));
        } else if (parsed instanceof KubernetesList list) {
            out.addAll(list.getItems());
        } else if (parsed instanceof HasMetadata single) {
            out.add(single);
        } else if (parsed != null) {
            throw new AssertionError("not Kubernetes objects: " + parsed.getClass());
        }
        return out;
    }

    <T extends HasMetadata> List<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    List<HasMetadata> kind(String kind) {
        return objects.stream().filter(o -> kind.equals(o.getKind())).toList();
    }

    List<GenericKubernetesResource> generic(String kind) {
        return kind(kind).stream().map(o -> {
            if (o instanceof GenericKubernetesResource g) {
                return g;
            }
            throw new AssertionError(kind + " " + o.getMetadata().getName() + " parsed as " + o.getClass());
        }).toList();
    }

    Optional<HasMetadata> find(String kind, String name) {
        return objects.stream()
                .filter(o -> kind.equals(o.getKind()) && name.equals(o.getMetadata().getName()))
                .findFirst();
    }

    <T extends HasMetadata> T get(Class<T> type, String name) {
        return all(type).stream().filter(o -> name.equals(o.getMetadata().getName())).findFirst()
                .orElseThrow(() -> new AssertionError("k8s/" + dir + " has no " + type.getSimpleName() + " " + name));
    }

    /** A workload's pod template, Deployment or StatefulSet. */
    record Workload(HasMetadata owner, Map<String, String> podLabels, PodSpec pod) {
        String name() {
            return owner.getKind() + "/" + owner.getMetadata().getName();
        }
    }

    List<Workload> workloads() {
        List<Workload> out = new ArrayList<>();
        for (Deployment d : all(Deployment.class)) {
            out.add(new Workload(d, d.getSpec().getTemplate().getMetadata().getLabels(), d.getSpec().getTemplate().getSpec()));
        }
        for (StatefulSet s : all(StatefulSet.class)) {
            out.add(new Workload(s, s.getSpec().getTemplate().getMetadata().getLabels(), s.getSpec().getTemplate().getSpec()));
        }
        return out;
    }
}
