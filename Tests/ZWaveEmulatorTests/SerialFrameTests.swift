import Testing
import ZWaveEmulator

@Suite struct SerialFrameTests {
    @Test func getVersionEncodesAsInTheFieldGuide() {
        #expect(SerialFrame(.request, 0x15).encoded == bytes("01 03 00 15 E9"))
        #expect(SerialFrame(.request, 0x20).encoded == bytes("01 03 00 20 DC"))
        #expect(SerialFrame(.request, 0x41, [0x02]).encoded == bytes("01 04 00 41 02 B8"))
    }

    @Test func checksumCoversLengthThroughPayload() {
        #expect(SerialFrame.checksum(bytes("03 00 15")) == 0xE9)
        let frame = SerialFrame(.request, 0x13, bytes("02 02 00 00 25 0A"))
        #expect(frame.encoded == bytes("01 09 00 13 02 02 00 00 25 0A CA"))
    }

    @Test func fieldGuideReportsEncodeByteExact() {
        // dimmer level 40 on the root, Scene Activation 16.
        #expect(
            SerialFrame(.request, 0x04, bytes("00 02 03 26 03 28")).encoded == bytes("01 09 00 04 00 02 03 26 03 28 FE")
        )
        #expect(
            SerialFrame(.request, 0x04, bytes("00 02 04 2B 01 10 00")).encoded
                == bytes("01 0A 00 04 00 02 04 2B 01 10 00 CD"))
    }

    @Test func meterReportEncoding() {
        // 53.6 W: consumed electric, precision 1, scale 2 (W), size 4.
        #expect(MeterReading.report(53.6, scale: .watts) == bytes("32 02 21 34 00 00 02 18 00 00"))
        // 2.50 kWh: precision 2, scale 0.
        #expect(MeterReading.report(2.5, scale: .kilowattHours) == bytes("32 02 21 44 00 00 00 FA 00 00"))
        #expect(MeterReading.report(123.4, scale: .watts).prefix(8) == bytes("32 02 21 34 00 00 04 D2")[...])
        #expect(MeterReading.report(-1, scale: .watts).prefix(8) == bytes("32 02 21 34 FF FF FF F6")[...])
    }
}
