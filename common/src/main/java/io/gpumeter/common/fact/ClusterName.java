package io.gpumeter.common.fact;

import io.gpumeter.common.problem.ApiProblem;

import java.util.regex.Pattern;

/** A cluster name is a DNS label: it becomes part of every fact's key and every report row. */
public final class ClusterName {

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    private ClusterName() {
    }

    /** Returns the name, or throws a 400 problem naming the field. */
    public static String require(String field, String name) {
        if (name == null || !DNS_LABEL.matcher(name).matches()) {
            throw ApiProblem.badRequest(field, field + " must be a DNS label (lower-case letters, digits and '-', at most 63 characters), got '" + name + "'");
        }
        return name;
    }
}
