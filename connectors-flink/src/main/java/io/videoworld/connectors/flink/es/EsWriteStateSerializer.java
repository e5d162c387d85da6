package io.videoworld.connectors.flink.es;

import io.videoworld.connectors.es.EsWrite;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.flink.connector.base.sink.writer.AsyncSinkWriterStateSerializer;

/** Checkpoints the writes still buffered in the sink writer. */
public final class EsWriteStateSerializer extends AsyncSinkWriterStateSerializer<EsWrite> {

    @Override
    protected void serializeRequestToStream(EsWrite w, DataOutputStream out) throws IOException {
        out.writeUTF(w.index());
        out.writeUTF(w.id());
        out.writeLong(w.version());
        out.writeInt(w.isDelete() ? -1 : w.json().length);
        if (!w.isDelete()) {
            out.write(w.json());
        }
    }

    @Override
    protected EsWrite deserializeRequestFromStream(long requestSize, DataInputStream in) throws IOException {
        String index = in.readUTF();
        String id = in.readUTF();
        long version = in.readLong();
        int length = in.readInt();
        if (length < 0) {
            return new EsWrite(index, id, version, null);
        }
        byte[] json = new byte[length];
        in.readFully(json);
        return new EsWrite(index, id, version, json);
    }

    @Override
    public int getVersion() {
        return 1;
    }
}
