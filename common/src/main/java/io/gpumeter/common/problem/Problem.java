package io.gpumeter.common.problem;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An RFC 9457 problem document: what went wrong, in words a user can act on, and which input caused it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String field, String instance) {

    public static final String MEDIA_TYPE = "application/problem+json";

    public static Problem of(int status, String title, String detail, String field) {
        return new Problem("about:blank", title, status, detail, field, null);
    }
}
