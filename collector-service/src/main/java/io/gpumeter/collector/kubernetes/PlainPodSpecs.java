package io.gpumeter.collector.kubernetes;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.NodeAffinity;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Toleration;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import static io.gpumeter.collector.kubernetes.PlainTokens.list;
import static io.gpumeter.collector.kubernetes.PlainTokens.next;
import static io.gpumeter.collector.kubernetes.PlainTokens.object;
import static io.gpumeter.collector.kubernetes.PlainTokens.string;
import static io.gpumeter.collector.kubernetes.PlainTokens.strings;

/**
 * Binds a plainly written pod's spec for {@link PlainPods}, by the same rules: what a pod's translators read of it
 * (its node, scheduler, containers' images and resources, resource claims, and where it may run — node selector,
 * required node affinity, tolerations), each field only in the JSON type the model declares.
 */
final class PlainPodSpecs {

    private PlainPodSpecs() {
    }

    static PodSpec spec(JsonParser p, JsonToken start) throws IOException {
        PodSpec spec = new PodSpec();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            switch (p.currentName()) {
                case "nodeName" -> spec.setNodeName(string(p, value));
                case "schedulerName" -> spec.setSchedulerName(string(p, value));
                case "containers" -> spec.setContainers(list(p, value, PlainPodSpecs::container));
                case "initContainers" -> spec.setInitContainers(list(p, value, PlainPodSpecs::container));
                case "resourceClaims" -> spec.setResourceClaims(list(p, value, PlainPodSpecs::resourceClaim));
                case "nodeSelector" -> spec.setNodeSelector(strings(p, value));
                case "affinity" -> spec.setAffinity(affinity(p, value));
                case "tolerations" -> spec.setTolerations(list(p, value, PlainPodSpecs::toleration));
                default -> p.skipChildren();
            }
        }
        return spec;
    }

    /** The required node affinity alone: what the scheduler only prefers, and pod (anti-)affinity, are not read. */
    private static Affinity affinity(JsonParser p, JsonToken start) throws IOException {
        Affinity affinity = new Affinity();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            if ("nodeAffinity".equals(p.currentName())) {
                affinity.setNodeAffinity(nodeAffinity(p, value));
            } else {
                p.skipChildren();
            }
        }
        return affinity;
    }

    private static NodeAffinity nodeAffinity(JsonParser p, JsonToken start) throws IOException {
        NodeAffinity affinity = new NodeAffinity();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            if ("requiredDuringSchedulingIgnoredDuringExecution".equals(p.currentName())) {
                affinity.setRequiredDuringSchedulingIgnoredDuringExecution(nodeSelector(p, value));
            } else {
                p.skipChildren();
            }
        }
        return affinity;
    }

    private static NodeSelector nodeSelector(JsonParser p, JsonToken start) throws IOException {
        NodeSelector selector = new NodeSelector();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            if ("nodeSelectorTerms".equals(p.currentName())) {
                selector.setNodeSelectorTerms(list(p, value, PlainPodSpecs::nodeSelectorTerm));
            } else {
                p.skipChildren();
            }
        }
        return selector;
    }

    private static NodeSelectorTerm nodeSelectorTerm(JsonParser p, JsonToken start) throws IOException {
        NodeSelectorTerm term = new NodeSelectorTerm();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            switch (p.currentName()) {
                case "matchExpressions" -> term.setMatchExpressions(list(p, value, PlainPodSpecs::requirement));
                case "matchFields" -> term.setMatchFields(list(p, value, PlainPodSpecs::requirement));
                default -> p.skipChildren();
            }
        }
        return term;
    }

    private static NodeSelectorRequirement requirement(JsonParser p, JsonToken start) throws IOException {
        NodeSelectorRequirement requirement = new NodeSelectorRequirement();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            switch (p.currentName()) {
                case "key" -> requirement.setKey(string(p, value));
                case "operator" -> requirement.setOperator(string(p, value));
                case "values" -> requirement.setValues(list(p, value, PlainTokens::string));
                default -> p.skipChildren();
            }
        }
        return requirement;
    }

    private static Toleration toleration(JsonParser p, JsonToken start) throws IOException {
        Toleration toleration = new Toleration();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            switch (p.currentName()) {
                case "key" -> toleration.setKey(string(p, value));
                case "operator" -> toleration.setOperator(string(p, value));
                case "value" -> toleration.setValue(string(p, value));
                case "effect" -> toleration.setEffect(string(p, value));
                default -> p.skipChildren();
            }
        }
        return toleration;
    }

    private static Container container(JsonParser p, JsonToken start) throws IOException {
        Container container = new Container();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            switch (p.currentName()) {
                case "name" -> container.setName(string(p, value));
                case "image" -> container.setImage(string(p, value));
                case "resources" -> container.setResources(resources(p, value));
                default -> p.skipChildren();
            }
        }
        return container;
    }

    private static ResourceRequirements resources(JsonParser p, JsonToken start) throws IOException {
        ResourceRequirements resources = new ResourceRequirements();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            switch (p.currentName()) {
                case "limits" -> resources.setLimits(quantities(p, value));
                case "requests" -> resources.setRequests(quantities(p, value));
                default -> p.skipChildren();
            }
        }
        return resources;
    }

    private static PodResourceClaim resourceClaim(JsonParser p, JsonToken start) throws IOException {
        PodResourceClaim claim = new PodResourceClaim();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            switch (p.currentName()) {
                case "name" -> claim.setName(string(p, value));
                case "resourceClaimName" -> claim.setResourceClaimName(string(p, value));
                case "resourceClaimTemplateName" -> claim.setResourceClaimTemplateName(string(p, value));
                default -> p.skipChildren();
            }
        }
        return claim;
    }

    /** A map of quantities, each written as a string, as {@code Quantity}'s own deserializer reads a string. */
    private static Map<String, Quantity> quantities(JsonParser p, JsonToken start) throws IOException {
        Map<String, Quantity> map = new LinkedHashMap<>();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            map.put(p.currentName(), new Quantity(string(p, value)));
        }
        return map;
    }
}
