package io.gpumeter.common.fact;

import io.gpumeter.common.problem.InvalidInput;

import java.util.regex.Pattern;

/** A cluster name is a DNS label: it becomes part of every fact's key and every report row. */
public final class ClusterName {

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    private ClusterName() {
    }

    /** Returns the name, or refuses it as input naming the field (a 400 problem in the services). */
    public static String require(String field, String name) {
        if (name == null || !DNS_LABEL.matcher(name).matches()) {
            throw new InvalidInput(field, field + " must be a DNS label (lower-case letters, digits and '-', at most 63 characters), got '" + name + "'");
        }
        return name;
    }
}
