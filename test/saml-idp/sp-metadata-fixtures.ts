/**
 * SP metadata as real service providers publish it, for the SAML IdP tests.
 */

const bare = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');

/**
 * What mod_auth_mellon's mellon_create_metadata.sh writes for `<base>`: the metadata namespace as the default
 * (no prefix), its signing certificate, a SingleLogoutService by HTTP-Redirect only, and assertion consumer
 * services by HTTP-POST, HTTP-Artifact and PAOS.
 */
export function mellonMetadata(base: string, certificatePem: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<EntityDescriptor
 entityID="${base}/metadata"
 xmlns="urn:oasis:names:tc:SAML:2.0:metadata">
  <SPSSODescriptor
   AuthnRequestsSigned="true"
   WantAssertionsSigned="true"
   protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <KeyDescriptor use="signing">
      <ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#">
        <ds:X509Data>
          <ds:X509Certificate>${bare(certificatePem)}</ds:X509Certificate>
        </ds:X509Data>
      </ds:KeyInfo>
    </KeyDescriptor>
    <KeyDescriptor use="encryption">
      <ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#">
        <ds:X509Data>
          <ds:X509Certificate>${bare(certificatePem)}</ds:X509Certificate>
        </ds:X509Data>
      </ds:KeyInfo>
    </KeyDescriptor>
    <SingleLogoutService
     Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"
     Location="${base}/logout" />
    <NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:transient</NameIDFormat>
    <AssertionConsumerService
     index="0"
     isDefault="true"
     Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"
     Location="${base}/postResponse" />
    <AssertionConsumerService
     index="1"
     Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Artifact"
     Location="${base}/artifactResponse" />
    <AssertionConsumerService
     index="2"
     Binding="urn:oasis:names:tc:SAML:2.0:bindings:PAOS"
     Location="${base}/paosResponse" />
  </SPSSODescriptor>
</EntityDescriptor>
`;
}
