package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.List;

/**
 * A service's answer to one call: its JSON (or text) when it said 2xx, else the refusal in readable words.
 *
 * @param call    what was asked, e.g. {@code GET /api/v1/gpu-hours?…}, with the service that answered
 * @param json    the body when it was JSON and the call succeeded
 * @param text    the body as text when the call succeeded
 * @param refusal null when the call succeeded
 * @param total   a paged list's full length ({@code X-Total-Count}), null when the service did not say
 */
public record Answer(ApiCall call, int status, JsonNode json, String text, Message refusal, Long total) {

    public Answer(ApiCall call, int status, JsonNode json, String text, Message refusal) {
        this(call, status, json, text, refusal, null);
    }

    public boolean ok() {
        return refusal == null;
    }

    /** The answer bound to the record the page reads it as (fields it does not know are left out). */
    public <T> T as(ObjectMapper mapper, Class<T> type) {
        return mapper.convertValue(json, type);
    }

    /** A list answer, each item bound to the record the page reads it as. */
    public <T> List<T> listOf(ObjectMapper mapper, Class<T> type) {
        return mapper.convertValue(json, mapper.getTypeFactory().constructCollectionType(List.class, type));
    }
}
