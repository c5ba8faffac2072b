/**
 * Secret-shaped values for the secret/ rule tests, made from pieces at run time so that no
 * scanner takes this source for a leak. None of them is or was a real credential.
 */
export const GH = ['ghp', '_', 'a1B2c3D4e5F6g7H8i9J0', 'k1L2m3N4o5P6q7R8s9T0'].join('')
export const AWS = ['AK', 'IA', 'Q3EGRZ7LMN4PX2WB'].join('')
export const SLACK = ['xo', 'xb-', '2871', '-93421-', 'Zk3mQ9pLw2Vx'].join('')
export const GOOGLE = ['AI', 'za', 'Sy', 'D3k9Lm2Qx7Pw4Rt8Vb6Nc1Zh5Jf0GsaBc'].join('')
export const OPENAI = ['sk', '-proj-', 'q8Vd2LmX7rTz4KpW9sNbA3cE5fG7hJ9kL1mN'].join('')
export const KEY_PEM = [
  '-----BEGIN ',
  'OPENSSH PRIVATE',
  ' KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n',
].join('')
export const URL_PW = ['Tr0ub4dor', '-x9'].join('')
export const RANDOM = ['q8Vd2LmX', '7rTz4KpW9sNb'].join('')
export const ALL = [GH, AWS, SLACK, GOOGLE, OPENAI, 'b3BlbnNzaC1rZXktdjEAAAAA', URL_PW, RANDOM]
