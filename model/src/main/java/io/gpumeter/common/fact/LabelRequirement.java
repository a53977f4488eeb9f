package io.gpumeter.common.fact;

import java.util.List;

/**
 * One requirement of a node selector term, as Kubernetes writes it.
 *
 * @param operator In, NotIn, Exists, DoesNotExist, Gt or Lt
 */
public record LabelRequirement(String key, String operator, List<String> values) {

    public LabelRequirement {
        values = values == null ? List.of() : List.copyOf(values);
    }
}
