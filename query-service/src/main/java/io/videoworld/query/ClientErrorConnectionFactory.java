package io.videoworld.query;

import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpChannelOverHttp;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnection;
import org.eclipse.jetty.server.HttpConnectionFactory;

/**
 * HTTP/1.1 connections whose unparseable requests are answered with a 4xx. Jetty answers a
 * request line naming an unknown HTTP version (or HTTP/0.9) with 505, a 5xx for what is the
 * client's mistake; this answers it 400. 501 (a transfer coding Jetty does not implement) stays.
 */
final class ClientErrorConnectionFactory extends HttpConnectionFactory {
    ClientErrorConnectionFactory(HttpConfiguration config) {
        super(config);
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
        HttpConnection connection = new HttpConnection(getHttpConfiguration(), connector, endPoint, isRecordHttpComplianceViolations()) {
            @Override
            protected HttpChannelOverHttp newHttpChannel() {
                return new HttpChannelOverHttp(this, getConnector(), getHttpConfiguration(), getEndPoint(), this) {
                    @Override
                    public void onBadMessage(BadMessageException failure) {
                        int code = failure.getCode();
                        super.onBadMessage(code >= 500 && code != 501 ? new BadMessageException(400, failure.getReason(), failure) : failure);
                    }
                };
            }
        };
        connection.setUseInputDirectByteBuffers(isUseInputDirectByteBuffers());
        connection.setUseOutputDirectByteBuffers(isUseOutputDirectByteBuffers());
        return configure(connection, connector, endPoint);
    }
}
