package io.gpumeter.mcp.reads;

import java.util.OptionalLong;

/**
 * What a service answered a read: its status, body and, for a list read with a limit, the whole list's length.
 *
 * @param url the REST URL of the whole answer (without the limit a tool adds), for the caller to fetch it all
 */
public record ServiceAnswer(int status, String contentType, String body, OptionalLong totalCount, String url) {
}
