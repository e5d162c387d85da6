package io.videoworld.connectors.es;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;

/**
 * One document write for the bulk sink: an index (upsert by id) of a JSON source, optionally
 * with an external version so that an older write never replaces a newer one.
 *
 * @param index target index
 * @param id deterministic document id
 * @param version external version ({@code external_gte}); negative for an unversioned write
 * @param json the document source, UTF-8 JSON; null deletes the document (with the version, so a
 *     late older write cannot bring it back while Elasticsearch remembers the deletion)
 */
public record EsWrite(String index, String id, long version, byte[] json) implements Serializable {
    public static final long UNVERSIONED = -1;

    public static EsWrite delete(String index, String id, long version) {
        return new EsWrite(index, id, version, null);
    }

    public boolean isDelete() {
        return json == null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EsWrite w && index.equals(w.index) && id.equals(w.id) && version == w.version
                && Arrays.equals(json, w.json);
    }

    @Override
    public int hashCode() {
        return Objects.hash(index, id, version) * 31 + Arrays.hashCode(json);
    }

    @Override
    public String toString() {
        return "EsWrite[" + index + "/" + id + " v" + version + (json == null ? ", delete]" : ", " + json.length + " bytes]");
    }
}
