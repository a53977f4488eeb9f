package io.gpumeter.ledger.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserSequence;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import io.gpumeter.common.fact.CarriedStatus;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.ledger.repository.ReceivedPayloads;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

import java.io.IOException;

/**
 * Pod versions and the governance views they carry, read from a request body ({@link ReceivedPayloads#read}), keep the
 * bytes they arrived as when those are in the written form ({@link CanonicalPodFact}, {@link CanonicalCarriedStatus});
 * any other, and every one read otherwise, is read by the mapper's general deserializer, which alone decides what is
 * accepted and what a refusal says.
 */
@Singleton
public class ReceivedPodVersions implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.registerModule(module());
    }

    public static SimpleModule module() {
        SimpleModule module = new SimpleModule("gpumeter-received-pod-versions");
        module.setDeserializerModifier(new BeanDeserializerModifier() {
            @Override
            public JsonDeserializer<?> modifyDeserializer(DeserializationConfig config, BeanDescription description,
                                                          JsonDeserializer<?> deserializer) {
                Class<?> type = description.getBeanClass();
                return type == PodFact.class ? new Reader(deserializer, CanonicalPodFact::read)
                        : type == CarriedStatus.class ? new Reader(deserializer, CanonicalCarriedStatus::read)
                        : deserializer;
            }
        });
        return module;
    }

    /**
     * Reads an object in the written form from its {@code START_OBJECT}, or answers null where it differs; the values
     * the body repeats are kept once ({@link Repeats}, one for each body, {@link DeserializationContext}'s per-call
     * attribute).
     */
    private interface WrittenReader {
        Object read(JsonParser p, Repeats repeats) throws IOException;
    }

    static final class Reader extends DelegatingDeserializer {

        private final WrittenReader written;

        Reader(JsonDeserializer<?> general, WrittenReader written) {
            super(general);
            this.written = written;
        }

        @Override
        protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> general) {
            return new Reader(general, written);
        }

        @Override
        public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!(ctxt.getAttribute(ReceivedPayloads.class) instanceof ReceivedPayloads received)
                    || p.currentToken() != JsonToken.START_OBJECT) {
                return _delegatee.deserialize(p, ctxt);
            }
            long from = p.currentTokenLocation().getByteOffset();
            Object fact = written.read(p, repeats(ctxt));
            if (fact != null) {
                received.keep(fact, from, p.currentLocation().getByteOffset());
                return fact;
            }
            return _delegatee.deserialize(fromStart(p, ctxt, received, from), ctxt);
        }

        /** This body's repeated values: a deserialization context lives for one body's reading. */
        private static Repeats repeats(DeserializationContext ctxt) {
            if (ctxt.getAttribute(Repeats.class) instanceof Repeats repeats) {
                return repeats;
            }
            Repeats repeats = new Repeats();
            ctxt.setAttribute(Repeats.class, repeats);
            return repeats;
        }

        /**
         * A parser that gives the object's tokens from its start again: those taken before the one that differs, read
         * again from the body, then this parser from that token on, so that what the general deserializer reads, and
         * where a refusal says it went wrong, is what it would have been without this reader.
         */
        private static JsonParser fromStart(JsonParser p, DeserializationContext ctxt, ReceivedPayloads received,
                                            long from) throws IOException {
            long differs = p.currentTokenLocation().getByteOffset();
            TokenBuffer taken = ctxt.bufferForInputBuffering(p);
            try (JsonParser again = received.parser(from, p.currentLocation().getByteOffset())) {
                while (again.currentToken() != null && again.currentTokenLocation().getByteOffset() < differs - from) {
                    taken.copyCurrentEvent(again);
                    again.nextToken();
                }
            }
            JsonParser replay = JsonParserSequence.createFlattened(true, taken.asParser(p), p);
            replay.nextToken();
            return replay;
        }
    }
}
