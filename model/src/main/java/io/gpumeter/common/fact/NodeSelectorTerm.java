package io.gpumeter.common.fact;

import java.util.List;

/**
 * One term of a required node affinity: a node matches it when it meets every requirement on its labels
 * ({@code matchExpressions}) and on its fields ({@code matchFields}, of which Kubernetes knows only
 * {@code metadata.name}).
 */
public record NodeSelectorTerm(List<LabelRequirement> matchExpressions, List<LabelRequirement> matchFields) {

    public NodeSelectorTerm {
        matchExpressions = matchExpressions == null ? List.of() : List.copyOf(matchExpressions);
        matchFields = matchFields == null ? List.of() : List.copyOf(matchFields);
    }
}
