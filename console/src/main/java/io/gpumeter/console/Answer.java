package io.gpumeter.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.List;

/**
 * A service's answer to one call: its body when it said 2xx, else the refusal in readable words. A page binds the
 * body to the records it reads it as ({@link #as}, {@link #listOf}); fields those records do not name are left out.
 *
 * @param call    what was asked, e.g. {@code GET /api/v1/gpu-hours?…}, with the service that answered
 * @param text    the body as it came when the call succeeded (JSON when {@code json} is true)
 * @param json    whether the body is JSON the console checked it can read
 * @param refusal null when the call succeeded
 * @param total   a paged list's full length ({@code X-Total-Count}), null when the service did not say
 */
public record Answer(ApiCall call, int status, String text, boolean json, Message refusal, Long total) {

    public boolean ok() {
        return refusal == null;
    }

    /** The answer bound to the record the page reads it as. */
    public <T> T as(ObjectMapper mapper, Class<T> type) {
        try {
            return mapper.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(call.service() + "'s answer to " + call.pathAndQuery() + " does not read as "
                    + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }

    /** A list answer, each item bound to the record the page reads it as. */
    public <T> List<T> listOf(ObjectMapper mapper, Class<T> type) {
        try {
            return mapper.readValue(text, mapper.getTypeFactory().constructCollectionType(List.class, type));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(call.service() + "'s answer to " + call.pathAndQuery() + " does not read as a list of "
                    + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }
}
