package io.gpumeter.mcp.auth;

import io.gpumeter.common.security.Caller;

import java.time.Instant;

/**
 * Who called, as its verified token says: the subject, its roles and tenant by the services' own reading
 * ({@link Caller}), and when the token expires — no call made on its behalf outlives it.
 */
public record McpCaller(String subject, Caller caller, Instant expires) {

    /** Where the gate leaves the verified caller on the request, for the tools and filters of that request. */
    public static final String KEY = "gpumeter.mcp.caller";
}
