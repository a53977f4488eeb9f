package io.gpumeter.ledger.rest;

import io.gpumeter.common.problem.ApiProblem;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** A request body's set of pods, read once for every bulk read that takes one. */
public final class PodRefs {

    private PodRefs() {
    }

    /**
     * The pods as "namespace/pod", in the order asked and without repeats; a missing, empty or too large set, or a
     * pod without its namespace or name, is a 400 naming the field.
     */
    public static List<String> keys(List<HoldingsRequest.PodRef> pods, int max) {
        if (pods == null || pods.isEmpty()) {
            throw ApiProblem.badRequest("pods", "pods is required: at least one {\"namespace\",\"pod\"}");
        }
        if (pods.size() > max) {
            throw ApiProblem.badRequest("pods", "pods may name at most " + max + " pods, got " + pods.size()
                    + "; split the set");
        }
        Set<String> keys = new LinkedHashSet<>();
        for (int i = 0; i < pods.size(); i++) {
            HoldingsRequest.PodRef ref = pods.get(i);
            String at = "pods[" + i + "]";
            if (ref == null) {
                throw ApiProblem.badRequest(at, at + " must be {\"namespace\",\"pod\"}");
            }
            keys.add(required(at + ".namespace", ref.namespace()) + "/" + required(at + ".pod", ref.pod()));
        }
        return List.copyOf(keys);
    }

    private static String required(String field, String value) {
        if (value == null || value.isBlank()) {
            throw ApiProblem.badRequest(field, field + " is required");
        }
        return value.trim();
    }
}
